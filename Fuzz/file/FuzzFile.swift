// libFuzzer entry for the whole-file path (scripts/fuzz.sh file SECONDS): sniffing, then exiv2
// from memory (through the C++ shim) for stills, the movie reader for movies, exactly as a
// `.livp` member is read. Linked against LiveReaders and its C libraries.
import LiveModel
import LiveReaders

@_cdecl("LLVMFuzzerTestOneInput")
public func livelintFuzzFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = MediaInspector.inspect(bytes: bytes, displayPath: "fuzz", options: .dump)
    precondition(file.path == "fuzz")
    _ = MediaInspector.inspect(bytes: bytes, displayPath: "fuzz", options: .lint)
    return 0
}
