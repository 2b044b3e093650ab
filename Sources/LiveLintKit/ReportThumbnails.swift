import Dispatch
import Foundation
import LiveLintEngine
import LiveReaders
import Reporters

/// Which cards of the HTML report get a thumbnail (`lint --thumbnails`).
public enum ThumbnailSelection: String, Sendable, CaseIterable {
    /// Only cards with findings: the file stays small for a large, mostly clean library.
    case findings
    /// Every card with a still.
    case all
    /// None.
    case none
}

extension LibraryScan {
    /// The embedded previews of the stills whose cards get one (``ThumbnailSelection``), read
    /// through exiv2's preview API after the scan (read-only; no pixel decoded), `jobs` at a
    /// time. A still that carries no preview a browser can draw, a `.livp` member (not a file
    /// on disk) or a file that no longer reads simply has none.
    public func thumbnails(for result: LintResult, selection: ThumbnailSelection,
                           maxBytes: Int = 48 * 1024) -> [String: HTMLThumbnail] {
        guard selection != .none else { return [:] }
        var wanted: Set<String> = []
        switch selection {
        case .all:
            for p in result.pairs { if let s = p.still { wanted.insert(s) } }
        case .findings:
            let withFindings = Set(result.findings.lazy.flatMap(\.files))
            for p in result.pairs {
                guard let s = p.still, withFindings.contains(s) || p.movie.map(withFindings.contains) == true else { continue }
                wanted.insert(s)
            }
        case .none:
            break
        }
        let stills = wanted.sorted()
        let found = UnsafeSendableBox([HTMLThumbnail?](repeating: nil, count: stills.count))
        let lock = NSLock()
        let workers = max(1, min(options.jobs, stills.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < stills.count {
                let preview = StillPreview.read(path: openPath(stills[i]), maxBytes: maxBytes)
                let thumb = preview.flatMap { HTMLThumbnail(mimeType: $0.mimeType, bytes: $0.bytes, width: $0.width, height: $0.height) }
                lock.lock()
                found.value[i] = thumb
                lock.unlock()
                i += workers
            }
        }
        var out: [String: HTMLThumbnail] = [:]
        for (path, thumb) in zip(stills, found.value) { if let thumb { out[path] = thumb } }
        return out
    }

    /// Where the file a report path names is opened: report paths are relative to the scanned
    /// folder when one folder was given, and as given otherwise.
    func openPath(_ reportPath: String) -> String {
        reportPath.hasPrefix("/") || root == "." ? reportPath : root + "/" + reportPath
    }
}

/// A value shared by the workers of one `concurrentPerform`, every access under a lock.
private final class UnsafeSendableBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
