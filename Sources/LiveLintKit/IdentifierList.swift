import LiveLintEngine
import LiveModel
import Reporters
import ScratchFiles

/// `lint --identifiers FILE`: one JSON Lines record per still or movie that carries a content
/// identifier (`.livp` members included), for `livelint merge` to find identifiers repeated
/// across shards or runs:
///
///     {"id":"E905E6C6-…","kind":"still","path":"2021/04/IMG_0001.JPG","shard":"2/8","type":"identifier"}
///
/// Sorted by identifier, then path; keys sorted; `shard` is `1/1` without `--shard`.
public enum IdentifierList {
    public struct Record: Hashable, Sendable {
        public var id: String
        public var kind: FileKind
        public var path: String
        public var shard: String

        public init(id: String, kind: FileKind, path: String, shard: String) {
            self.id = id
            self.kind = kind
            self.path = path
            self.shard = shard
        }
    }

    /// The list of `files` written to `sink` a line at a time (about 64 KiB a piece), its records
    /// sorted on disk in `scratch` past a run's worth (nil: in memory): a sharded million's list
    /// is not held whole (issue 13).
    public static func write(_ files: some Sequence<FileSummary>, shard: String, scratch: String?, runSize: Int? = nil,
                             to sink: (String) -> Void) {
        Pieces.write(to: sink) { add in
            sorted(files, shard: shard, scratch: scratch, runSize: runSize) { add(line($0)) }
        }
    }

    /// Every still and movie (and `.livp` member) with an identifier, by identifier then path
    /// (records alike in both in the order met).
    private static func sorted(_ files: some Sequence<FileSummary>, shard: String, scratch: String?, runSize: Int?,
                               _ body: (Record) -> Void) {
        let records = SortedRecords<Record>(spillingIn: scratch, prefix: "livelint-identifiers", runSize: runSize) {
            ($0.id, $0.path) < ($1.id, $1.path)
        }
        func add(_ file: FileSummary) {
            if (file.kind == .still || file.kind == .movie), let id = file.contentIdentifier {
                records.append(Record(id: id, kind: file.kind, path: file.path, shard: shard))
            }
            for member in file.members ?? [] { add(member) }
        }
        files.forEach(add)
        records.forEachInOrder(body)
    }

    private static func line(_ r: Record) -> String {
        let q = JSONText.quoted
        return "{\"id\":\(q(r.id)),\"kind\":\(q(r.kind.rawValue)),\"path\":\(q(r.path)),"
            + "\"shard\":\(q(r.shard)),\"type\":\"identifier\"}\n"
    }
}

extension IdentifierList.Record: ScratchRecord {
    public func encode(into bytes: inout [UInt8]) {
        var w = RecordWriter(bytes: consume bytes)
        w.string(id)
        w.string(kind.rawValue)
        w.string(path)
        w.string(shard)
        bytes = w.bytes
    }

    public init?(decoding bytes: UnsafeRawBufferPointer) {
        var r = RecordReader(bytes: bytes)
        guard let id = r.string(), let kind = r.string().flatMap(FileKind.init(rawValue:)), let path = r.string(),
              let shard = r.string(), r.atEnd else { return nil }
        self.init(id: id, kind: kind, path: path, shard: shard)
    }
}
