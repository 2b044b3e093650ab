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
    /// Where the HTML report reads the thumbnails of the cards `selection` picks as it writes
    /// them (``HTMLThumbnailSource``; nil for `.none`), so that no more than a batch of cards'
    /// previews is held (issue 13). Each batch's embedded previews are read through exiv2's
    /// preview API (read-only; no pixel decoded), `jobs` at a time. A still that carries no
    /// preview a browser can draw, a `.livp` member (not a file on disk) or a file that no longer
    /// reads simply has none.
    public func thumbnailSource(_ selection: ThumbnailSelection, maxBytes: Int = 48 * 1024) -> HTMLThumbnailSource? {
        let onlyCardsWithFindings: Bool
        switch selection {
        case .findings: onlyCardsWithFindings = true
        case .all: onlyCardsWithFindings = false
        case .none: return nil
        }
        return HTMLThumbnailSource(onlyCardsWithFindings: onlyCardsWithFindings) { stills in
            previews(of: stills, maxBytes: maxBytes)
        }
    }

    /// The embedded previews of `stills` (report paths), in order, read `jobs` at a time.
    func previews(of stills: [String], maxBytes: Int) -> [HTMLThumbnail?] {
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
        return found.value
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
