import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import Rules
import Testing
@testable import LiveWriters

/// A rule and `fix` cannot disagree: on every broken pair under `Fixtures/library/broken`, the
/// repairs the rules attach to their findings are exactly what the plan applies, no more and no
/// less, and a pair is left alone exactly when no finding asks for a repair.
struct RepairAgreementTests {
    static let broken = W.fixtures.appendingPathComponent("library/broken")
    static let folders: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The fixture folders named after a rule whose finding `fix` repairs.
    static let repaired: Set<String> = [
        "identifier-mismatch", "identifier-case-mismatch", "still-missing-identifier", "movie-missing-identifier",
        "missing-still-image-time", "still-image-time-out-of-range", "still-image-time-type", "video-codec",
    ]

    @Test func everyFixtureFolderIsChecked() {
        #expect(Self.folders.count >= 15)
        #expect(Self.repaired.isSubset(of: Set(Self.folders)))
    }

    @Test(arguments: folders)
    func theRulesRepairsAreWhatThePlanApplies(folder: String) throws {
        let dir = Self.broken.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let files = names.map { MediaInspector.inspect(path: dir.appendingPathComponent($0).path, options: .lint) }
        var planned = 0
        // `fix` reads the repairs off a whole scan's findings (LiveLintKit's PairRepair); they
        // must be what the rules attach to the pair on its own.
        let scanFindings = Planning.engine.run(files: files, root: dir.path).findings
        for pair in Pairing.pair(files) {
            guard let still = pair.still, let movie = pair.movie else { continue }
            let repairs = Planning.engine.repairs(for: pair)
            let halves: Set = [still.path, movie.path]
            let fromScan = LintEngine.repairs(from: scanFindings.filter { $0.files.allSatisfy(halves.contains) })
            #expect(fromScan == repairs, "\(folder): the scan's findings carry \(fromScan), the pair's rules \(repairs)")
            let plan = RepairPlanner.plan(still: still, movie: movie, repairs: repairs, freshIdentifier: { Sample.uuidC })
            let label = "\(folder): \(pair.paths.map { ($0 as NSString).lastPathComponent })"
            #expect(plan.isClean == repairs.isEmpty, "\(label): repairs \(repairs), plan \(plan.actions)")
            if !repairs.isEmpty { planned += 1 }

            // Every repair is in the plan …
            let stillID = still.still?.contentIdentifier, movieID = movie.movie?.contentIdentifier
            for repair in repairs {
                switch repair {
                case let .setIdentifier(s, m):
                    #expect(s == stillID && m == movieID, "\(label): the rule saw other identifiers than the files carry")
                    let after = (still: plan.editStill ? plan.identifier : s, movie: plan.movieEdit?.contentIdentifier ?? m)
                    #expect(after.still == plan.identifier && after.movie == plan.identifier, "\(label): \(after)")
                    #expect(plan.editStill == (s != plan.identifier), "\(label)")
                    #expect((plan.movieEdit?.contentIdentifier != nil) == (m != plan.identifier), "\(label)")
                case let .addStillImageTime(at), let .replaceStillImageTime(at):
                    let t = try #require(at, "\(label): the fixture movie has a duration")
                    #expect(plan.movieEdit?.stillImageTime == t, "\(label)")
                case let .retagVideoSampleEntry(from, to):
                    #expect(movie.movie?.video?.codec == from, "\(label)")
                    #expect(plan.movieEdit?.videoSampleEntryFormat == to, "\(label)")
                }
            }
            // … and everything the plan changes comes from a repair.
            let asksForIdentifier = repairs.contains { if case .setIdentifier = $0 { return true } else { return false } }
            let asksForStillImageTime = repairs.contains {
                switch $0 {
                case .addStillImageTime, .replaceStillImageTime: return true
                default: return false
                }
            }
            let asksForRetag = repairs.contains { if case .retagVideoSampleEntry = $0 { return true } else { return false } }
            if plan.editStill || plan.movieEdit?.contentIdentifier != nil { #expect(asksForIdentifier, "\(label)") }
            if plan.movieEdit?.stillImageTime != nil { #expect(asksForStillImageTime, "\(label)") }
            if plan.movieEdit?.videoSampleEntryFormat != nil { #expect(asksForRetag, "\(label)") }
            #expect(plan.actions.count >= repairs.count, "\(label): \(plan.actions)")
            if !repairs.isEmpty { #expect(plan.isRepairable, "\(label): \(plan.blockers)") }
        }
        if Self.repaired.contains(folder) { #expect(planned >= 1, "\(folder): no pair asks for a repair") }
    }
}
