// libFuzzer entry for the box reader and the movie reader (scripts/fuzz.sh movie SECONDS).
// Compiled together with Sources/LiveReaders/Movie/*.swift into one module, against ISOBMFF and
// LiveModel; no C libraries, so every crash here is ours.
import ISOBMFF
import LiveModel

@_cdecl("LLVMFuzzerTestOneInput")
public func livelintFuzzMovie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Everything the dump path reads: every mebx sample of every track.
    let full = MovieReader.read(MemoryByteSource(bytes), options: MovieReadOptions(samples: .all))
    // The lint fast path, with a tiny sample budget (a different route through the sample tables).
    let lint = MovieReader.read(MemoryByteSource(bytes), options: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 2))
    // The raw box tree, as the writers parse it, and a round trip of what parsed.
    let tree = BoxTree.parse(bytes)
    for node in tree.nodes { _ = node.serialized() }
    // A reading without a stopping error must hold a movie.
    if full.error == nil && full.movie == nil { preconditionFailure("no error and no movie") }
    _ = lint.movie?.tracks.count
    return 0
}
