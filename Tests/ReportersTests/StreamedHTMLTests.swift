import Foundation
import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing
import TestSupport

/// The HTML report joins findings with cards by lists sorted on disk (issue 13): its data block is
/// the one the join held in memory gave (kept here as the reference), byte for byte, on disk in
/// runs of 1 and 3, in one run, and held, on libraries of pairs with and without media, lone
/// halves, `.livp` members, a path that is a half of two pairs, and findings about one file, both
/// halves of a card, several cards, files of no pair and none at all.
struct StreamedHTMLTests {
    static let nonce = "fixed-nonce"

    /// A new, empty folder for the lists sorted on disk.
    private static func scratchDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The text between the data block's tags.
    private static func dataBlock(_ page: String) throws -> Substring {
        let open = #"<script type="application/json" id="livelint-data">"#
        let start = try #require(page.range(of: open))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return page[start.upperBound..<end.lowerBound]
    }

    @Test func theSameDataAsHeld() throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for seed in UInt64(1)...40 {
            let result = RandomLibrary.make(seed: seed)
            var options = LintReportOptions(html: HTMLReportInput(nonce: Self.nonce, pageSize: 7))
            options.documentationBaseURI = "https://example.com/"
            let expected = Self.heldData(result, rules: Fixtures.rules, options: options)
            var pages: [String] = []
            for (directory, run) in [(nil, nil), (scratch, 1), (scratch, 3), (scratch, nil)] as [(String?, Int?)] {
                options.scratchDirectory = directory
                options.scratchRun = run
                let page = HTMLReporter.render(result, rules: Fixtures.rules, toolVersion: "1", options: options)
                #expect(try Self.dataBlock(page) == expected, "seed \(seed), runs of \(String(describing: run)) in \(directory ?? "memory")")
                pages.append(page)
                #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "seed \(seed): left in the scratch folder")
            }
            #expect(Set(pages).count == 1, "seed \(seed)")
        }
    }

    /// The rules of the join on a library made by hand: a path that is a half of two pairs is
    /// the later one's, an archive's path is no half, a finding naming both halves of a card is
    /// listed once, and findings naming no pair's file (or none) are `other`.
    @Test func aLibraryByHand() throws {
        let pairs = [
            PairRecord(still: "a/IMG_1.JPG", movie: "a/IMG_1.MOV", contentIdentifier: "ID", pairedBy: .contentIdentifier,
                       media: PairMedia(stillIdentifier: "ID", movieIdentifier: "ID", movieDuration: 2)),
            PairRecord(still: "a/IMG_1.JPG", movie: nil, contentIdentifier: nil, pairedBy: .name),
            PairRecord(still: "b/x.livp!IMG_2.HEIC", movie: "b/x.livp!IMG_2.MOV", contentIdentifier: nil, pairedBy: .archive),
            PairRecord(still: nil, movie: "c/IMG_3.MOV", contentIdentifier: nil, pairedBy: .unpaired),
            PairRecord(still: "c/IMG_4.JPG", movie: nil, contentIdentifier: nil, pairedBy: .unpaired),
        ]
        let files: [[String]] = [
            [], ["a/IMG_1.JPG"], ["a/IMG_1.JPG", "a/IMG_1.MOV"], ["b/x.livp"], ["b/x.livp!IMG_2.HEIC", "b/x.livp!IMG_2.MOV"],
            ["c/IMG_3.MOV", "z/lost.JPG"], ["z/lost.JPG"], ["a/IMG_1.MOV", "c/IMG_3.MOV", "c/IMG_4.JPG"],
        ]
        let findings = files.enumerated().map { Finding(ruleID: "r\($0.offset % 2)", severity: .error, message: "m", files: $0.element, documentation: "d") }
        let result = LintResult(root: "lib", files: [], pairs: pairs, findings: findings,
                                summary: LintSummary(files: 6, pairs: 2, errors: findings.count, warnings: 0, infos: 0))
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var options = LintReportOptions(html: HTMLReportInput(nonce: Self.nonce))
        let expected = Self.heldData(result, rules: [], options: options)
        for (directory, run) in [(nil, nil), (scratch, 1), (scratch, 3)] as [(String?, Int?)] {
            options.scratchDirectory = directory
            options.scratchRun = run
            let page = HTMLReporter.render(result, rules: [], toolVersion: "1", options: options)
            #expect(try Self.dataBlock(page) == expected)
            let data = try HTMLReporterTests.dataBlock(page)
            let cards = try #require(data["cards"] as? [[Any]])
            #expect(cards.map { $0[4] as? [Int] } == [[2, 7], [1, 2], [4], [5, 7], [7]])
            #expect(data["other"] as? [Int] == [0, 3, 6])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }

    /// The data block goes out in pieces of about 64 KiB, `other` and the cards too, however
    /// long they are.
    @Test func longListsInPieces() throws {
        let pairs = (0..<20_000).map { PairRecord(still: "IMG_\($0).JPG", movie: nil, contentIdentifier: nil, pairedBy: .unpaired) }
        let findings = (0..<40_000).map { Finding(ruleID: "r", severity: .info, message: "", files: $0 % 2 == 0 ? [] : ["IMG_\($0 / 2).JPG"], documentation: "d") }
        let result = LintResult(root: ".", files: [], pairs: pairs, findings: findings,
                                summary: LintSummary(files: 0, pairs: 0, errors: 0, warnings: 0, infos: findings.count))
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var options = LintReportOptions()
        options.scratchDirectory = scratch
        var pieces: [String] = []
        HTMLReporter.writeData(result, rules: [], options: options) { pieces.append($0) }
        #expect(pieces.joined() == Self.heldData(result, rules: [], options: options))
        #expect(pieces.count > 4)
        #expect(pieces.allSatisfy { $0.utf8.count < (1 << 16) + 1024 }, "\(pieces.map(\.utf8.count).max() ?? 0) bytes")
    }

    /// A made-up preview of `still`, none for about a fifth of them.
    private static func preview(_ still: String) -> HTMLThumbnail? {
        let sum = still.utf8.reduce(0) { $0 + Int($1) }
        return sum % 5 == 0 ? nil : HTMLThumbnail(mimeType: "image/jpeg", bytes: Array(still.utf8), width: sum, height: still.count)
    }

    /// Two stills whose names differ only in their Unicode normalisation (NFC `É`, NFD `E` and an
    /// accent) are two files: each card shows its own file's preview. A dictionary by path (the
    /// page before the thumbnails were read a batch at a time) equated the spellings and showed one
    /// file's preview on both cards. Which cards a finding names is unchanged: the join compares
    /// paths as Swift does, as the dictionary did, so the finding about the NFD spelling marks
    /// both cards (`--thumbnails findings` draws both).
    @Test func twinSpellingsShowTheirOwnPreviews() throws {
        let nfc = "a/\u{C9}.JPG", nfd = "a/E\u{301}.JPG"
        #expect(nfc == nfd && !nfc.utf8.elementsEqual(nfd.utf8))
        let result = LintResult(
            root: ".", files: [],
            pairs: [PairRecord(still: nfc, movie: nil, contentIdentifier: nil, pairedBy: .unpaired),
                    PairRecord(still: nfd, movie: nil, contentIdentifier: nil, pairedBy: .unpaired)],
            findings: [Finding(ruleID: "orphan-still", severity: .warning, message: "", files: [nfd], documentation: "d")],
            summary: LintSummary(files: 2, pairs: 0, errors: 0, warnings: 1, infos: 0))
        for onlyCardsWithFindings in [true, false] {
            var options = LintReportOptions(html: HTMLReportInput(nonce: Self.nonce))
            options.html.thumbnailSource = HTMLThumbnailSource(onlyCardsWithFindings: onlyCardsWithFindings) { stills in
                stills.map { HTMLThumbnail(mimeType: "image/png", bytes: Array($0.utf8), width: $0.utf8.count, height: 1) }
            }
            let page = HTMLReporter.render(result, rules: [], toolVersion: "1", options: options)
            for still in [nfc, nfd] {
                #expect(page.contains(Data(still.utf8).base64EncodedString()), "\(onlyCardsWithFindings): \(Array(still.utf8))")
            }
        }
    }

    /// What a source was asked for, call by call.
    private final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var stills: [[String]] = []
        var calls: [[String]] { lock.withLock { stills } }
        func source(onlyCardsWithFindings: Bool) -> HTMLThumbnailSource {
            HTMLThumbnailSource(onlyCardsWithFindings: onlyCardsWithFindings) { stills in
                self.lock.withLock { self.stills.append(stills) }
                return stills.map(StreamedHTMLTests.preview)
            }
        }
    }

    /// Thumbnails from a source go to the cards the selection wants (a still or movie that any
    /// finding names; every still), read a batch of cards at a time and only for those cards; a
    /// still in the dictionary is taken from there. Where no still is a half of two pairs, the
    /// page is the one the dictionary of the wanted stills (what `lint` held) gave.
    @Test func thumbnailsFromASource() throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Random libraries, and one of more cards than a batch, every other still named.
        let large = LintResult(
            root: ".", files: [],
            pairs: (0..<1000).map { PairRecord(still: "IMG_\($0).JPG", movie: $0 % 3 == 0 ? "IMG_\($0).MOV" : nil, contentIdentifier: nil, pairedBy: .name) },
            findings: (0..<1000).map { Finding(ruleID: "r", severity: .info, message: "", files: $0 % 2 == 0 ? ["IMG_\($0).JPG"] : [], documentation: "d") },
            summary: LintSummary(files: 0, pairs: 0, errors: 0, warnings: 0, infos: 1000))
        let libraries: [(seed: UInt64, result: LintResult)] = (UInt64(1)...40).map { ($0, RandomLibrary.make(seed: $0)) } + [(0, large)]
        for (seed, result) in libraries {
            let named = Set(result.findings.flatMap(\.files))
            let stills = result.pairs.compactMap(\.still)
            for onlyCardsWithFindings in [true, false] {
                let wants = { (p: PairRecord) in
                    !onlyCardsWithFindings || p.still.map(named.contains) == true || p.movie.map(named.contains) == true
                }
                // Some stills given in the dictionary (as PNG, to tell them apart): not asked for.
                let given = Dictionary(stills.enumerated().filter { $0.offset % 4 == 1 }.map {
                    ($0.element, HTMLThumbnail(mimeType: "image/png", bytes: [1, 2], width: 1, height: 1)!)
                }, uniquingKeysWith: { a, _ in a })
                for dictionary in [[:], given] {
                    var options = LintReportOptions(html: HTMLReportInput(thumbnails: dictionary, nonce: Self.nonce))
                    let expected = Self.heldData(result, rules: [], options: options) { p in
                        p.still.flatMap { wants(p) ? Self.preview($0) : nil }
                    }
                    let wanted = result.pairs.compactMap { p in p.still.flatMap { dictionary[$0] == nil && wants(p) ? $0 : nil } }
                    for (directory, run) in [(nil, nil), (scratch, 1), (scratch, 3)] as [(String?, Int?)] {
                        let label = "seed \(seed), \(onlyCardsWithFindings ? "findings" : "all"), \(dictionary.count) given, runs of \(String(describing: run))"
                        let asked = Asked()
                        options.html.thumbnailSource = asked.source(onlyCardsWithFindings: onlyCardsWithFindings)
                        options.scratchDirectory = directory
                        options.scratchRun = run
                        let page = HTMLReporter.render(result, rules: [], toolVersion: "1", options: options)
                        #expect(try Self.dataBlock(page) == expected, "\(label)")
                        #expect(asked.calls.joined().elementsEqual(wanted), "\(label)")
                        #expect(asked.calls.allSatisfy { !$0.isEmpty && $0.count <= HTMLReporter.cardBatch }, "\(label)")
                        // Full calls but the last: cards wait until a batch wants a preview each.
                        #expect(asked.calls.dropLast().allSatisfy { $0.count == HTMLReporter.cardBatch }, "\(label)")
                        if wanted.count > HTMLReporter.cardBatch { #expect(asked.calls.count > 1, "\(label)") }
                    }
                    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "seed \(seed)")
                }
                // The dictionary of the wanted stills gives the same page, where no still is a
                // half of two pairs (a dictionary by still cannot tell their cards apart).
                if Set(stills).count == stills.count {
                    var held = LintReportOptions(html: HTMLReportInput(nonce: Self.nonce))
                    for p in result.pairs where wants(p) { if let still = p.still { held.html.thumbnails[still] = Self.preview(still) } }
                    var streamed = LintReportOptions(html: HTMLReportInput(nonce: Self.nonce))
                    streamed.html.thumbnailSource = Asked().source(onlyCardsWithFindings: onlyCardsWithFindings)
                    streamed.scratchDirectory = scratch
                    streamed.scratchRun = 2
                    #expect(HTMLReporter.render(result, rules: [], toolVersion: "1", options: streamed)
                            == HTMLReporter.render(result, rules: [], toolVersion: "1", options: held), "seed \(seed)")
                }
            }
        }
    }

    /// The data block as it was written from the join held in memory (every path's card, every
    /// card's findings): the reference. A card whose still is not in the thumbnails given gets
    /// `thumbnail`'s.
    private static func heldData(_ result: LintResult, rules: [RuleSummary], options: LintReportOptions,
                                 thumbnail: (PairRecord) -> HTMLThumbnail? = { _ in nil }) -> String {
        var cardOfPath: [String: Int] = [:]
        for (i, p) in result.pairs.enumerated() {
            if let s = p.still { cardOfPath[s] = i }
            if let m = p.movie { cardOfPath[m] = i }
        }
        var findingsOfCard: [Int: [Int]] = [:]
        var other: [Int] = []
        for (index, f) in result.findings.enumerated() {
            var cards: [Int] = []
            for file in f.files { if let c = cardOfPath[file], !cards.contains(c) { cards.append(c) } }
            if cards.isEmpty { other.append(index) }
            for c in cards { findingsOfCard[c, default: []].append(index) }
        }
        var ruleTable: [String: JSON] = [:]
        for r in rules {
            ruleTable[r.id] = .object(["n": .string(r.name), "u": .string(r.summary), "s": .string(r.defaultSeverity.rawValue),
                                       "d": .string(options.documentationLink(r.documentation))])
        }
        for f in result.findings where ruleTable[f.ruleID] == nil {
            ruleTable[f.ruleID] = .object(["n": .string(f.ruleID), "u": .string(""), "s": .string(f.severity.rawValue),
                                           "d": .string(options.documentationLink(f.documentation))])
        }
        var out = "{\"v\":\(HTMLReporter.dataVersion),\"root\":"
        out += HTMLEscape.scriptJSON(JSON.string(result.root).compact())
        out += ",\"pageSize\":\(max(1, options.html.pageSize)),\"rules\":"
        out += HTMLEscape.scriptJSON(JSON.object(ruleTable).compact())
        out += ",\"findings\":["
        for (i, f) in result.findings.enumerated() {
            if i > 0 { out += "," }
            let item: JSON = .array([.string(f.ruleID), .string(f.severity.rawValue), .string(f.message),
                                     .string(f.fixHint), .array(f.files.map(JSON.string))])
            out += HTMLEscape.scriptJSON(item.compact())
        }
        out += "],\"other\":" + JSON.array(other.map { .integer($0) }).compact()
        out += ",\"cards\":["
        for (i, p) in result.pairs.enumerated() {
            if i > 0 { out += "," }
            var card: [JSON] = [.string(p.still ?? ""), .string(p.movie ?? ""), .string(p.contentIdentifier),
                                .string(p.pairedBy.rawValue), .array((findingsOfCard[i] ?? []).map { .integer($0) }),
                                p.media.map { HTMLReporter.media($0, of: p) } ?? .null]
            if let t = p.still.flatMap({ options.html.thumbnails[$0] }) ?? thumbnail(p) {
                card.append(.array([.string("data:\(t.mimeType);base64," + Data(t.bytes).base64EncodedString()),
                                    .integer(t.width), .integer(t.height)]))
            }
            out += HTMLEscape.scriptJSON(JSON.array(card).compact())
        }
        out += "]}"
        return out
    }
}
