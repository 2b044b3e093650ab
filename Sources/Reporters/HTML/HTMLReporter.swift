import Foundation
import LiveLintEngine

/// `livelint lint --format html`: one self-contained page (inline CSS, script and SVG; no
/// request of any kind, it opens from disk) for people auditing a library.
///
/// On top a summary (files, pairs, lone halves, counts per severity, a bar chart of findings
/// per rule, consumer outcomes when given); below, one card per pair or lone half, drawn by the
/// page's script a page at a time from a JSON data block, so 50,000 pairs stay quick: a
/// thumbnail (the still's embedded preview, see ``HTMLReportInput``), the identifiers, the
/// movie's timeline in SVG (duration, edit-list segments, where the still-image-time sits),
/// the findings with their fix hints and a link to their rule. Filters (severity, rule, folder,
/// text), sorting and paging live in the URL fragment (`#rule=identifier-mismatch&sev=error`),
/// so a link to a view is a view.
///
/// DOM contract (tests, scripts): every card is `.pair` with `data-still` and `data-movie`
/// holding the report paths (empty when absent); every finding is `.finding` with
/// `data-rule` (and `data-finding`, its index in the JSON report's `findings`).
///
/// Memory (issue 13: a million-file library): the page is handed out in pieces of about 64 KiB
/// and the findings and cards are written as they are read from the result; which findings each
/// card lists is found by lists sorted in `options.scratchDirectory` past a run's worth
/// (``CardJoin``; without a folder those lists are held), and the thumbnails a
/// ``HTMLThumbnailSource`` gives are read a batch of cards at a time as the cards are written.
/// What stays in memory is what the summary counts per rule and per consumer, a batch of cards
/// with their findings and thumbnails, the runs and blocks the lists read back, and whatever
/// ``HTMLReportInput/thumbnails`` the caller holds.
///
/// Safety: untrusted strings are escaped for where they land (``HTMLEscape``) and placed by the
/// script as text only; a Content-Security-Policy allows no network at all (`default-src
/// 'none'`), images only from `data:` and only the page's own style sheet and script (by nonce).
public enum HTMLReporter {
    /// Previews a ``HTMLThumbnailSource`` is asked for at once, at most: cards wait until this
    /// many want one (the source reads them in parallel), or until ``cardsHeld`` wait.
    static let cardBatch = 128
    /// Cards that wait at most (most want no preview with `--thumbnails findings`).
    static let cardsHeld = 4_096

    /// The data block's own version (the page's script reads it; bumped when its shape changes).
    static let dataVersion = 1

    public static func render(_ result: LintResult, rules: [RuleSummary], toolVersion: String,
                              options: LintReportOptions = LintReportOptions()) -> String {
        var out = ""
        write(result, rules: rules, toolVersion: toolVersion, options: options) { out += $0 }
        return out
    }

    /// What ``render(_:rules:toolVersion:options:)`` returns, in pieces of about 64 KiB.
    public static func write(_ result: LintResult, rules: [RuleSummary], toolVersion: String,
                             options: LintReportOptions = LintReportOptions(), to sink: (String) -> Void) {
        let input = options.html
        let nonce = input.nonce ?? processNonce
        let n = HTMLEscape.attribute(nonce)
        let root = HTMLEscape.text(result.root)
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-\(n)'; style-src 'nonce-\(n)'; img-src data:; base-uri 'none'; form-action 'none'">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="livelint \(HTMLEscape.attribute(toolVersion))">
            <title>livelint report: \(root)</title>
            <style nonce="\(n)">\(HTMLAssets.css)</style>
            </head>
            <body>
            <header><h1>livelint report <span class="root">\(root)</span></h1><p class="tool">livelint \(HTMLEscape.text(toolVersion))</p></header>

            """
        // The run's own consumer counts (`lint --consumers`), unless the caller gave others.
        let consumers = input.consumerOutcomes.isEmpty
            ? result.summary.consumers.mapValues { counts in
                Dictionary(uniqueKeysWithValues: ConsumerOutcome.allCases.map { ($0.rawValue, counts[$0] ?? 0) }) }
            : input.consumerOutcomes
        out += summary(result, rules: rules, consumers: consumers)
        out += HTMLAssets.controls(rules: rulesWithFindings(result))
        out += "<script type=\"application/json\" id=\"livelint-data\">"
        sink(out)
        out = ""
        writeData(result, rules: rules, options: options, to: sink)
        out += "</script>\n<script nonce=\"\(n)\">\(HTMLAssets.script)</script>\n"
        out += "<noscript><p class=\"noscript\">The cards need JavaScript; the summary above is complete without it.</p></noscript>\n"
        out += "</body>\n</html>\n"
        sink(out)
    }

    /// A fresh nonce per process (128 bits from the system's generator).
    static let processNonce: String = {
        var g = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
        return Data(bytes).base64EncodedString()
    }()

    // MARK: summary (static HTML and SVG: readable without the script)

    static func rulesWithFindings(_ result: LintResult) -> [(id: String, count: Int, severity: Severity)] {
        var byRule: [String: (count: Int, severity: Severity)] = [:]
        for f in result.findings {
            let old = byRule[f.ruleID] ?? (0, .info)
            byRule[f.ruleID] = (old.count + 1, max(old.severity, f.severity))
        }
        return byRule.map { (id: $0.key, count: $0.value.count, severity: $0.value.severity) }
            .sorted { ($1.count, $0.id) < ($0.count, $1.id) }
    }

    static func summary(_ result: LintResult, rules: [RuleSummary], consumers: [String: [String: Int]]) -> String {
        let s = result.summary
        let lone = result.pairs.count(pairedBy: .unpaired)
        var out = "<section id=\"summary\">\n<ul class=\"counts\">"
        let counts: [(String, String, Int)] = [
            ("files", "files", s.files), ("pairs", "pairs", s.pairs), ("lone", "lone halves", lone),
            ("error", "errors", s.errors), ("warning", "warnings", s.warnings), ("info", "infos", s.infos),
        ] + (s.baselined > 0 ? [("baselined", "baselined", s.baselined)] : [])
        for (cls, label, value) in counts {
            out += "<li class=\"count \(cls)\" data-count=\"\(cls)\"><b>\(value)</b> \(label)</li>"
        }
        out += "</ul>\n"
        out += chart(rulesWithFindings(result))
        if !consumers.isEmpty { out += consumerTable(consumers) }
        out += "</section>\n"
        return out
    }

    /// Findings per rule as horizontal bars, coloured by the most severe finding of the rule.
    static func chart(_ rows: [(id: String, count: Int, severity: Severity)]) -> String {
        guard let top = rows.map(\.count).max(), top > 0 else {
            return "<p class=\"clean\">No findings.</p>\n"
        }
        let rowHeight = 22, labelWidth = 250, barWidth = 360, width = labelWidth + barWidth + 60
        let height = rows.count * rowHeight + 4
        var out = "<svg class=\"chart\" role=\"img\" aria-label=\"findings per rule\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (i, row) in rows.enumerated() {
            let y = i * rowHeight + 2
            let w = max(2, Int((Double(row.count) / Double(top) * Double(barWidth)).rounded()))
            let id = HTMLEscape.text(row.id)
            out += "<g class=\"bar sev-\(row.severity.rawValue)\" data-rule=\"\(HTMLEscape.attribute(row.id))\" data-count=\"\(row.count)\">"
            out += "<text x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">\(id)</text>"
            out += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(w)\" height=\"\(rowHeight - 6)\" rx=\"2\"></rect>"
            out += "<text x=\"\(labelWidth + w + 6)\" y=\"\(y + 15)\">\(row.count)</text></g>"
        }
        out += "</svg>\n"
        return out
    }

    static func consumerTable(_ consumers: [String: [String: Int]]) -> String {
        let outcomes = Set(consumers.values.flatMap(\.keys)).sorted()
        var out = "<table class=\"consumers\"><caption>Consumer outcomes (pairs)</caption><thead><tr><th>consumer</th>"
        for o in outcomes { out += "<th>\(HTMLEscape.text(o))</th>" }
        out += "</tr></thead><tbody>"
        for name in consumers.keys.sorted() {
            out += "<tr data-consumer=\"\(HTMLEscape.attribute(name))\"><th>\(HTMLEscape.text(name))</th>"
            for o in outcomes { out += "<td>\(consumers[name]?[o] ?? 0)</td>" }
            out += "</tr>"
        }
        out += "</tbody></table>\n"
        return out
    }

    // MARK: data block

    /// The JSON the page's script draws from, escaped for a `<script>` element and handed to
    /// `sink` a piece at a time. Cards keep the result's pair order; each lists the indexes of
    /// the findings that name one of its files; findings that name no pair's file go to `other`.
    /// A path that is a half of several pairs is the last one's (``CardJoin``).
    static func writeData(_ result: LintResult, rules: [RuleSummary], options: LintReportOptions,
                          to sink: (String) -> Void) {
        let join = CardJoin(result, marksNamed: options.html.thumbnailSource?.onlyCardsWithFindings == true,
                            scratch: options.scratchDirectory, runSize: options.scratchRun)

        var ruleTable: [String: JSON] = [:]
        for r in rules {
            ruleTable[r.id] = .object(["n": .string(r.name), "u": .string(r.summary), "s": .string(r.defaultSeverity.rawValue),
                                       "d": .string(options.documentationLink(r.documentation))])
        }
        for f in result.findings where ruleTable[f.ruleID] == nil {
            ruleTable[f.ruleID] = .object(["n": .string(f.ruleID), "u": .string(""), "s": .string(f.severity.rawValue),
                                           "d": .string(options.documentationLink(f.documentation))])
        }

        var out = "{\"v\":\(dataVersion),\"root\":"
        out += HTMLEscape.scriptJSON(JSON.string(result.root).compact())
        out += ",\"pageSize\":\(max(1, options.html.pageSize)),\"rules\":"
        out += HTMLEscape.scriptJSON(JSON.object(ruleTable).compact())
        out += ",\"findings\":["
        for (i, f) in result.findings.enumerated() {
            if i > 0 { out += "," }
            let item: JSON = .array([.string(f.ruleID), .string(f.severity.rawValue), .string(f.message),
                                     .string(f.fixHint), .array(f.files.map(JSON.string))])
            out += HTMLEscape.scriptJSON(item.compact())
            if out.utf8.count >= 1 << 16 { sink(out); out = "" }
        }
        out += "],\"other\":["
        var first = true
        join.forEachOther { index in
            out += first ? String(index) : "," + String(index)
            first = false
            if out.utf8.count >= 1 << 16 { sink(out); out = "" }
        }
        out += "],\"cards\":["
        // The cards wait a batch at a time: the previews a source gives them are read in one call
        // for the batch, and no more than those are held.
        var batch: [PendingCard] = []
        var asking = 0
        func writeBatch() {
            for (card, thumbnail) in zip(batch, thumbnails(of: batch, input: options.html)) {
                let p = card.pair
                if card.index > 0 { out += "," }
                var item: [JSON] = [.string(p.still ?? ""), .string(p.movie ?? ""), .string(p.contentIdentifier),
                                    .string(p.pairedBy.rawValue), .array(card.findings.map { .integer($0) }),
                                    p.media.map { media($0, of: p) } ?? .null]
                if let t = thumbnail {
                    item.append(.array([.string("data:\(t.mimeType);base64," + Data(t.bytes).base64EncodedString()),
                                        .integer(t.width), .integer(t.height)]))
                }
                out += HTMLEscape.scriptJSON(JSON.array(item).compact())
                if out.utf8.count >= 1 << 16 { sink(out); out = "" }
            }
            batch.removeAll(keepingCapacity: true)
            asking = 0
        }
        join.forEachCard { i, findings, marked in
            let card = PendingCard(index: i, pair: result.pairs[i], findings: findings, marked: marked)
            batch.append(card)
            if asks(card, input: options.html) { asking += 1 }
            if asking == cardBatch || batch.count == cardsHeld { writeBatch() }
        }
        writeBatch()
        out += "]}"
        sink(out)
    }

    /// A card waiting in a batch: its pair, the findings it lists, and whether a finding names its
    /// still or movie (known only when the thumbnails' selection needs it).
    struct PendingCard {
        var index: Int
        var pair: PairRecord
        var findings: [Int]
        var marked: Bool
    }

    /// Whether the source is asked for `card`'s preview: it has a still the caller gave none for,
    /// and the source's selection wants it.
    static func asks(_ card: PendingCard, input: HTMLReportInput) -> Bool {
        guard let source = input.thumbnailSource, let still = card.pair.still, input.thumbnails[still] == nil else { return false }
        return card.marked || !source.onlyCardsWithFindings
    }

    /// The thumbnail of each card of `batch`: the one given for its still, else, when the
    /// source's selection wants the card, the source's (one call for the whole batch, none when
    /// no card wants one).
    static func thumbnails(of batch: [PendingCard], input: HTMLReportInput) -> [HTMLThumbnail?] {
        var thumbnails = batch.map { card in card.pair.still.flatMap { input.thumbnails[$0] } }
        guard let source = input.thumbnailSource else { return thumbnails }
        let asked = batch.indices.compactMap { k -> (card: Int, still: String)? in
            guard asks(batch[k], input: input), let still = batch[k].pair.still else { return nil }
            return (k, still)
        }
        guard !asked.isEmpty else { return thumbnails }
        for (card, thumbnail) in zip(asked.map(\.card), source.read(asked.map(\.still))) { thumbnails[card] = thumbnail }
        return thumbnails
    }

    /// A pair's media facts, with short keys (the data block is most of a large report). A
    /// half's identifier is written only when it differs from the card's (`null` when that half
    /// carries none): most pairs carry one identifier, written once.
    static func media(_ m: PairMedia, of pair: PairRecord) -> JSON {
        var o: [String: JSON] = [:]
        if pair.still != nil, m.stillIdentifier != pair.contentIdentifier { o["si"] = .string(m.stillIdentifier) }
        if pair.movie != nil, m.movieIdentifier != pair.contentIdentifier { o["mi"] = .string(m.movieIdentifier) }
        if let w = m.stillWidth, let h = m.stillHeight { o["wh"] = .array([.integer(w), .integer(h)]) }
        if let d = m.movieDuration { o["d"] = .number(d) }
        if !m.edits.isEmpty {
            o["e"] = .array(m.edits.map { .array([.number($0.start), .number($0.duration), .number($0.mediaTime), .number($0.rate)]) })
        }
        if let t = m.stillImageTime { o["t"] = .number(t) }
        if let v = m.stillImageTimeValue { o["tv"] = .integer(v) }
        if let c = m.videoCodec { o["c"] = .string(c) }
        return .object(o)
    }
}
