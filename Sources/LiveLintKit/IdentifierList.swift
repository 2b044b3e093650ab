import LiveLintEngine
import LiveModel
import Reporters

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

    public static func records(_ files: some Sequence<FileSummary>, shard: String) -> [Record] {
        var out: [Record] = []
        func add(_ file: FileSummary) {
            if (file.kind == .still || file.kind == .movie), let id = file.contentIdentifier {
                out.append(Record(id: id, kind: file.kind, path: file.path, shard: shard))
            }
            for member in file.members ?? [] { add(member) }
        }
        files.forEach(add)
        return out.sorted { ($0.id, $0.path) < ($1.id, $1.path) }
    }

    public static func render(_ records: [Record]) -> String {
        var out = ""
        for r in records {
            let q = JSONText.quoted
            out += "{\"id\":\(q(r.id)),\"kind\":\(q(r.kind.rawValue)),\"path\":\(q(r.path)),"
                + "\"shard\":\(q(r.shard)),\"type\":\"identifier\"}\n"
        }
        return out
    }
}
