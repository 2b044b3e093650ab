import LiveLintEngine

/// The HTML report's constant parts: its style sheet, its filter form and its script. None of
/// them holds data; the data block is the only place untrusted strings live (see ``HTMLEscape``).
enum HTMLAssets {
    /// The filter form. Rule options are written here (ids are escaped like any string); the
    /// folder list is filled by the script from the data.
    static func controls(rules: [(id: String, count: Int, severity: Severity)]) -> String {
        var out = """
            <form id="controls" autocomplete="off">
            <fieldset class="sev"><legend>Severity</legend>
            <label><input type="checkbox" name="sev" value="error" checked> error</label>
            <label><input type="checkbox" name="sev" value="warning" checked> warning</label>
            <label><input type="checkbox" name="sev" value="info" checked> info</label>
            </fieldset>
            <label>Rule <select name="rule"><option value="">all rules</option>
            """
        for r in rules.sorted(by: { $0.id < $1.id }) {
            out += "<option value=\"\(HTMLEscape.attribute(r.id))\">\(HTMLEscape.text(r.id)) (\(r.count))</option>"
        }
        out += """
            </select></label>
            <label>Folder <select name="folder"><option value="">all folders</option></select></label>
            <label>Text <input type="search" name="q" placeholder="name, identifier, message"></label>
            <label>Sort <select name="sort"><option value="path">by path</option><option value="severity">most severe first</option><option value="findings">most findings first</option></select></label>
            <label><input type="checkbox" name="all"> also pairs without findings</label>
            </form>
            <p id="status" role="status"></p>
            <nav class="pager" id="pager-top"></nav>
            <main id="cards"></main>
            <nav class="pager" id="pager-bottom"></nav>
            <section id="other" hidden><h2>Findings about other files</h2><ul class="findings"></ul></section>
            <section id="legend" hidden><h2>Rules</h2><dl></dl></section>

            """
        return out
    }

    static let css = #"""
    :root{--error:#c62828;--warning:#b26a00;--info:#1565c0;--ok:#2e7d32;--line:#ddd;--muted:#666;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:14px;color:#222;background:#fafafa}
    body{margin:0 auto;max-width:1200px;padding:12px 20px 40px}
    header h1{font-size:20px;margin:8px 0 2px}header .root{font-family:ui-monospace,monospace;font-weight:normal}
    .tool{color:var(--muted);margin:0 0 12px}
    .counts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:8px 0}
    .count{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 12px}
    .count b{font-size:18px}.count.error b{color:var(--error)}.count.warning b{color:var(--warning)}.count.info b{color:var(--info)}
    svg.chart text{font-size:12px;fill:#333;font-family:ui-monospace,monospace}
    .bar rect{fill:#999}.bar.sev-error rect{fill:var(--error)}.bar.sev-warning rect{fill:var(--warning)}.bar.sev-info rect{fill:var(--info)}
    table.consumers{border-collapse:collapse;margin:10px 0}table.consumers td,table.consumers th{border:1px solid var(--line);padding:3px 8px;text-align:left}
    #controls{display:flex;flex-wrap:wrap;gap:10px 18px;align-items:center;background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:14px 0 6px;position:sticky;top:0;z-index:1}
    #controls fieldset{border:0;padding:0;margin:0;display:flex;gap:8px}#controls legend{float:left;margin-right:6px}
    #status{color:var(--muted);margin:6px 0}
    .pager{display:flex;gap:6px;align-items:center;margin:6px 0}.pager button{padding:2px 10px}
    .pair{display:flex;gap:14px;background:#fff;border:1px solid var(--line);border-left:5px solid var(--ok);border-radius:6px;padding:10px;margin:10px 0}
    .pair.sev-error{border-left-color:var(--error)}.pair.sev-warning{border-left-color:var(--warning)}.pair.sev-info{border-left-color:var(--info)}
    .thumb{flex:0 0 160px;height:120px;display:flex;align-items:center;justify-content:center;background:#eee;border-radius:4px;overflow:hidden;color:var(--muted);font-size:12px;text-align:center}
    .thumb img{max-width:160px;max-height:120px}
    .body{flex:1;min-width:0}
    .names{margin:0 0 4px;font-size:15px;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
    .names .absent{color:var(--muted);font-style:italic;font-family:system-ui,sans-serif}
    .meta{color:var(--muted);margin:0 0 6px;overflow-wrap:anywhere}.meta code{color:#333}
    .ids{margin:0 0 6px;font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}.ids .differ{color:var(--error)}
    svg.timeline{display:block;margin:4px 0 8px;max-width:100%}
    svg.timeline .axis{stroke:#999}svg.timeline text{font-size:11px;fill:#555;font-family:ui-monospace,monospace}
    svg.timeline .edit{fill:#90caf9}svg.timeline .gap{fill:#eee;stroke:#bbb;stroke-dasharray:3 2}svg.timeline .whole{fill:#cfd8dc}
    svg.timeline .still{stroke:var(--ok);stroke-width:3}svg.timeline .still.outside{stroke:var(--error)}
    ul.findings{list-style:none;padding:0;margin:0}
    .finding{padding:4px 0;border-top:1px dashed var(--line)}
    .finding .sev{display:inline-block;min-width:74px;font-weight:bold;text-transform:uppercase;font-size:11px}
    .finding.sev-error .sev{color:var(--error)}.finding.sev-warning .sev{color:var(--warning)}.finding.sev-info .sev{color:var(--info)}
    .finding .rule{font-family:ui-monospace,monospace;margin-right:6px}
    .finding .msg{overflow-wrap:anywhere}.finding .fix{color:#333;margin:2px 0 0 78px;overflow-wrap:anywhere}.finding .fix::before{content:"Fix: ";font-weight:bold}
    #legend dt{font-family:ui-monospace,monospace;margin-top:8px}#legend dd{margin-left:16px}
    .clean{color:var(--ok)}.noscript{color:var(--error)}
    """#

    static let script = #"""
    (function () {
      'use strict';
      var started = performance.now();
      var violations = 0;
      document.addEventListener('securitypolicyviolation', function () {
        violations += 1;
        document.body.setAttribute('data-csp-violations', String(violations));
      });
      document.body.setAttribute('data-csp-violations', '0');
      var data = JSON.parse(document.getElementById('livelint-data').textContent);
      var SEV = { error: 2, warning: 1, info: 0 };
      var SVGNS = 'http://www.w3.org/2000/svg';
      var form = document.getElementById('controls');
      var cardsEl = document.getElementById('cards');

      function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined && text !== null) e.textContent = String(text);
        return e;
      }
      function svg(tag, attrs) {
        var e = document.createElementNS(SVGNS, tag);
        for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
        return e;
      }
      function folderOf(path) { var i = path.lastIndexOf('/'); return i < 0 ? '.' : path.slice(0, i); }
      function baseName(path) { var i = path.lastIndexOf('/'); return i < 0 ? path : path.slice(i + 1); }
      function safeLink(u) { return /^https?:\/\//i.test(u) ? u : null; }

      // Cards as objects, computed once.
      var cards = data.cards.map(function (c, index) {
        var worst = -1;
        c[4].forEach(function (f) { worst = Math.max(worst, SEV[data.findings[f][1]]); });
        // A half's identifier is the card's unless the data names it ('si'/'mi'; null: none).
        var media = c[5];
        if (media) {
          if (!('si' in media)) media.si = c[0] ? c[2] : undefined;
          if (!('mi' in media)) media.mi = c[1] ? c[2] : undefined;
          if (media.si === null || media.si === undefined) delete media.si;
          if (media.mi === null || media.mi === undefined) delete media.mi;
          if (!c[0]) delete media.si;
          if (!c[1]) delete media.mi;
        }
        var text = [c[0], c[1], c[2] || ''];
        if (media) { text.push(media.si || '', media.mi || ''); }
        c[4].forEach(function (f) { text.push(data.findings[f][0], data.findings[f][2]); });
        return { index: index, still: c[0], movie: c[1], id: c[2], by: c[3], findings: c[4], media: c[5], thumb: c[6] || null,
                 folder: folderOf(c[0] || c[1]), worst: worst, text: text.join('\n').toLowerCase() };
      });

      // Folder options.
      var folders = {};
      cards.forEach(function (c) { if (c.findings.length) folders[c.folder] = (folders[c.folder] || 0) + 1; });
      var folderSelect = form.elements.folder;
      Object.keys(folders).sort().forEach(function (f) {
        var o = el('option', null, f + ' (' + folders[f] + ')');
        o.value = f;
        folderSelect.appendChild(o);
      });

      var state = { sev: { error: true, warning: true, info: true }, rule: '', folder: '', q: '', sort: 'path', all: false, page: 1, size: data.pageSize };

      function readHash() {
        var p = new URLSearchParams(location.hash.replace(/^#/, ''));
        if (p.has('sev')) {
          var wanted = p.get('sev').split(',');
          state.sev = { error: wanted.indexOf('error') >= 0, warning: wanted.indexOf('warning') >= 0, info: wanted.indexOf('info') >= 0 };
        }
        state.rule = p.get('rule') || '';
        state.folder = p.get('folder') || '';
        state.q = p.get('q') || '';
        state.sort = ['path', 'severity', 'findings'].indexOf(p.get('sort')) >= 0 ? p.get('sort') : 'path';
        state.all = p.get('all') === '1';
        state.page = Math.max(1, parseInt(p.get('page') || '1', 10) || 1);
        var size = p.get('size');
        state.size = size === 'all' ? Infinity : Math.max(1, parseInt(size || '', 10) || data.pageSize);
      }
      function writeHash() {
        var p = new URLSearchParams();
        var sev = Object.keys(state.sev).filter(function (k) { return state.sev[k]; });
        if (sev.length !== 3) p.set('sev', sev.join(','));
        if (state.rule) p.set('rule', state.rule);
        if (state.folder) p.set('folder', state.folder);
        if (state.q) p.set('q', state.q);
        if (state.sort !== 'path') p.set('sort', state.sort);
        if (state.all) p.set('all', '1');
        if (state.page > 1) p.set('page', String(state.page));
        if (state.size !== data.pageSize) p.set('size', state.size === Infinity ? 'all' : String(state.size));
        try { history.replaceState(null, '', '#' + p.toString()); } catch (e) { /* a file: URL may refuse; the view still works */ }
      }
      function syncForm() {
        Array.prototype.forEach.call(form.querySelectorAll('input[name=sev]'), function (i) { i.checked = !!state.sev[i.value]; });
        form.elements.rule.value = state.rule;
        form.elements.folder.value = state.folder;
        form.elements.q.value = state.q;
        form.elements.sort.value = state.sort;
        form.elements.all.checked = state.all;
      }
      function readForm() {
        Array.prototype.forEach.call(form.querySelectorAll('input[name=sev]'), function (i) { state.sev[i.value] = i.checked; });
        state.rule = form.elements.rule.value;
        state.folder = form.elements.folder.value;
        state.q = form.elements.q.value;
        state.sort = form.elements.sort.value;
        state.all = form.elements.all.checked;
        state.page = 1;
      }

      function visibleFindings(card) {
        return card.findings.filter(function (f) {
          var finding = data.findings[f];
          return state.sev[finding[1]] && (!state.rule || finding[0] === state.rule);
        });
      }
      function matching() {
        var q = state.q.toLowerCase();
        var list = cards.filter(function (c) {
          if (state.folder && c.folder !== state.folder) return false;
          if (q && c.text.indexOf(q) < 0) return false;
          if (visibleFindings(c).length > 0) return true;
          return state.all && !state.rule && c.findings.length === 0;
        });
        if (state.sort === 'severity') list.sort(function (a, b) { return (b.worst - a.worst) || (a.index - b.index); });
        if (state.sort === 'findings') list.sort(function (a, b) { return (b.findings.length - a.findings.length) || (a.index - b.index); });
        return list;
      }

      function seconds(s) { return (Math.round(s * 1000) / 1000) + ' s'; }
      function timeline(m) {
        var W = 600, H = 46, x0 = 8, x1 = W - 120;
        var d = typeof m.d === 'number' && m.d > 0 ? m.d : 0;
        var edits = m.e || [];
        var end = d;
        edits.forEach(function (e) { end = Math.max(end, e[0] + e[1]); });
        if (typeof m.t === 'number') end = Math.max(end, m.t);
        if (!(end > 0)) return null;
        var scale = function (t) { return x0 + (x1 - x0) * Math.max(0, t) / end; };
        var s = svg('svg', { 'class': 'timeline', width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
        s.setAttribute('aria-label', 'movie timeline');
        if (edits.length) {
          edits.forEach(function (e) {
            var r = svg('rect', { 'class': e[2] === null ? 'gap' : 'edit', x: scale(e[0]), y: 8, width: Math.max(1, scale(e[0] + e[1]) - scale(e[0])), height: 14 });
            var t = svg('title', {});
            t.textContent = (e[2] === null ? 'empty edit' : 'edit from media ' + seconds(e[2]) + ' at rate ' + e[3]) + ', ' + seconds(e[0]) + ' + ' + seconds(e[1]);
            r.appendChild(t);
            s.appendChild(r);
          });
        } else if (d > 0) {
          s.appendChild(svg('rect', { 'class': 'whole', x: x0, y: 8, width: scale(d) - x0, height: 14 }));
        }
        s.appendChild(svg('line', { 'class': 'axis', x1: x0, x2: scale(end), y1: 26, y2: 26 }));
        var l0 = svg('text', { x: x0, y: 40 }); l0.textContent = '0'; s.appendChild(l0);
        var l1 = svg('text', { x: scale(d || end), y: 40, 'text-anchor': 'middle' }); l1.textContent = seconds(d); s.appendChild(l1);
        if (typeof m.t === 'number') {
          var inside = m.t >= 0 && m.t < d;
          var x = scale(Math.min(m.t, end));
          var line = svg('line', { 'class': inside ? 'still' : 'still outside', x1: x, x2: x, y1: 2, y2: 28 });
          var tt = svg('title', {}); tt.textContent = 'still-image-time ' + seconds(m.t) + (m.tv !== undefined ? ' (value ' + m.tv + ')' : '');
          line.appendChild(tt);
          s.appendChild(line);
          var lt = svg('text', { x: x1 + 8, y: 19 }); lt.textContent = 'still ' + seconds(m.t); s.appendChild(lt);
        }
        return s;
      }

      function findingItem(f) {
        var finding = data.findings[f];
        var li = el('li', 'finding sev-' + finding[1]);
        li.setAttribute('data-rule', finding[0]);
        li.setAttribute('data-finding', String(f));
        li.appendChild(el('span', 'sev', finding[1]));
        var rule = data.rules[finding[0]] || {};
        var a = el('a', 'rule', finding[0]);
        var href = safeLink(rule.d || '');
        a.setAttribute('href', href || '#');
        if (href) { a.setAttribute('rel', 'noreferrer noopener'); a.setAttribute('target', '_blank'); }
        else { a.addEventListener('click', function (ev) { ev.preventDefault(); showRule(finding[0]); }); }
        a.setAttribute('title', (rule.n || '') + (rule.u ? ': ' + rule.u : '') + (rule.d ? ' (' + rule.d + ')' : ''));
        li.appendChild(a);
        li.appendChild(el('span', 'msg', finding[2]));
        if (finding[3]) li.appendChild(el('div', 'fix', finding[3]));
        return li;
      }

      function cardElement(c) {
        var art = el('article', 'pair' + (c.worst >= 0 ? ' sev-' + ['info', 'warning', 'error'][c.worst] : ''));
        art.setAttribute('data-still', c.still);
        art.setAttribute('data-movie', c.movie);
        var thumb = el('div', 'thumb');
        if (c.thumb && /^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+\/=]+$/.test(c.thumb[0])) {
          var img = el('img');
          img.setAttribute('src', c.thumb[0]);
          img.setAttribute('alt', 'embedded preview of ' + c.still);
          thumb.appendChild(img);
        } else {
          thumb.textContent = c.still ? 'no preview' : 'no still';
        }
        art.appendChild(thumb);
        var body = el('div', 'body');
        var names = el('h3', 'names');
        names.appendChild(c.still ? el('span', 'still', baseName(c.still)) : el('span', 'absent', 'no still'));
        names.appendChild(document.createTextNode(' + '));
        names.appendChild(c.movie ? el('span', 'movie', baseName(c.movie)) : el('span', 'absent', 'no movie'));
        body.appendChild(names);
        var meta = el('p', 'meta');
        meta.appendChild(document.createTextNode('folder '));
        meta.appendChild(el('code', null, c.folder));
        meta.appendChild(document.createTextNode(c.by === 'unpaired' ? ' · lone half' : ' · paired by ' + c.by));
        if (c.media && c.media.c) meta.appendChild(document.createTextNode(' · video ' + c.media.c));
        if (c.media && c.media.wh) meta.appendChild(document.createTextNode(' · still ' + c.media.wh[0] + '×' + c.media.wh[1]));
        body.appendChild(meta);
        var m = c.media || {};
        var ids = el('p', 'ids');
        if (m.si !== undefined || m.mi !== undefined) {
          var differ = m.si !== undefined && m.mi !== undefined && m.si !== m.mi;
          ids.appendChild(el('span', differ ? 'differ' : null, 'still id ' + (m.si === undefined ? '—' : m.si)));
          ids.appendChild(document.createTextNode('  ·  '));
          ids.appendChild(el('span', differ ? 'differ' : null, 'movie id ' + (m.mi === undefined ? '—' : m.mi)));
        } else {
          ids.textContent = 'identifier ' + (c.id || '—');
        }
        body.appendChild(ids);
        var t = c.media ? timeline(c.media) : null;
        if (t) body.appendChild(t);
        var ul = el('ul', 'findings');
        visibleFindings(c).forEach(function (f) { ul.appendChild(findingItem(f)); });
        body.appendChild(ul);
        art.appendChild(body);
        return art;
      }

      function pager(nav, pages) {
        while (nav.firstChild) nav.removeChild(nav.firstChild);
        if (pages <= 1) return;
        var prev = el('button', null, '‹ previous'); prev.type = 'button'; prev.disabled = state.page <= 1;
        prev.addEventListener('click', function () { state.page -= 1; render(); window.scrollTo(0, 0); });
        var next = el('button', null, 'next ›'); next.type = 'button'; next.disabled = state.page >= pages;
        next.addEventListener('click', function () { state.page += 1; render(); window.scrollTo(0, 0); });
        nav.appendChild(prev);
        nav.appendChild(el('span', null, 'page ' + state.page + ' of ' + pages));
        nav.appendChild(next);
      }

      function render() {
        var list = matching();
        var size = state.size;
        var pages = size === Infinity ? 1 : Math.max(1, Math.ceil(list.length / size));
        state.page = Math.min(state.page, pages);
        var from = size === Infinity ? 0 : (state.page - 1) * size;
        var shown = list.slice(from, size === Infinity ? list.length : from + size);
        var frag = document.createDocumentFragment();
        shown.forEach(function (c) { frag.appendChild(cardElement(c)); });
        while (cardsEl.firstChild) cardsEl.removeChild(cardsEl.firstChild);
        cardsEl.appendChild(frag);
        var status = document.getElementById('status');
        status.setAttribute('data-matching', String(list.length));
        status.setAttribute('data-shown', String(shown.length));
        status.textContent = list.length === 0 ? 'No card matches.' :
          'Cards ' + (from + 1) + '–' + (from + shown.length) + ' of ' + list.length + ' matching (' + cards.length + ' pairs and lone halves in all).';
        pager(document.getElementById('pager-top'), pages);
        pager(document.getElementById('pager-bottom'), pages);
        var other = document.getElementById('other');
        var otherList = other.querySelector('ul');
        while (otherList.firstChild) otherList.removeChild(otherList.firstChild);
        var q = state.q.toLowerCase();
        data.other.forEach(function (f) {
          var finding = data.findings[f];
          if (!state.sev[finding[1]] || (state.rule && finding[0] !== state.rule)) return;
          if (state.folder && finding[4].every(function (p) { return folderOf(p) !== state.folder; })) return;
          var li = findingItem(f);
          li.insertBefore(el('code', 'files', finding[4].join(', ') + ' '), li.querySelector('.msg'));
          if (q && li.textContent.toLowerCase().indexOf(q) < 0) return;
          otherList.appendChild(li);
        });
        other.hidden = !otherList.firstChild;
        writeHash();
        document.body.setAttribute('data-rendered', '1');
      }

      function showRule(id) {
        var legend = document.getElementById('legend');
        var dl = legend.querySelector('dl');
        while (dl.firstChild) dl.removeChild(dl.firstChild);
        var r = data.rules[id] || {};
        var dt = el('dt', null, id + ' (' + (r.s || '') + ')');
        dt.setAttribute('data-rule', id);
        dl.appendChild(dt);
        dl.appendChild(el('dd', null, (r.n || '') + (r.u ? ': ' + r.u : '')));
        dl.appendChild(el('dd', null, 'Documentation: ' + (r.d || '') + ' · livelint rules ' + id));
        legend.hidden = false;
        legend.scrollIntoView();
      }

      form.addEventListener('change', function () { readForm(); render(); });
      form.addEventListener('input', function (ev) { if (ev.target && ev.target.name === 'q') { readForm(); render(); } });
      form.addEventListener('submit', function (ev) { ev.preventDefault(); });
      window.addEventListener('hashchange', function () { readHash(); syncForm(); render(); });
      readHash();
      syncForm();
      render();
      // How long parsing the data and the first page took (a figure for tests and the curious).
      document.body.setAttribute('data-first-render-ms', String(Math.round(performance.now() - started)));
    })();
    """#
}
