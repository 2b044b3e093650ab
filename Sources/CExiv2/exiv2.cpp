// The C++ side of cexiv2.h. Modelled on GNOME/gexiv2 (gexiv2-metadata.cpp): every entry point
// is a try block that turns any exception into a status code and a message, so no C++ exception
// ever crosses into Swift, and exiv2's logging is muted so nothing is printed behind our back.

#include "cexiv2.h"

#include <exiv2/exiv2.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// ---------------------------------------------------------------------------------------------
// One-time initialisation.

std::once_flag gInitOnce;
std::mutex gXmpMutex;

void noLog(int, const char *) {}

// XMP namespace registration is process-wide state in the XMP toolkit: serialise it
// (exiv2's documented pattern, XmpParser::initialize).
void xmpLock(void *data, bool lock) {
    std::mutex *m = static_cast<std::mutex *>(data);
    if (lock) {
        m->lock();
    } else {
        m->unlock();
    }
}

void initialiseOnce() {
    std::call_once(gInitOnce, [] {
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::LogMsg::setHandler(noLog);
        Exiv2::XmpParser::initialize(xmpLock, &gXmpMutex);
        // HEIC / AVIF / CR3 are only recognised once BMFF support is switched on (0.27.4+).
        Exiv2::enableBMFF(true);
    });
}

// ---------------------------------------------------------------------------------------------
// Errors.

char *copyString(const std::string &s) {
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p == nullptr) throw std::bad_alloc();
    std::memcpy(p, s.data(), s.size());
    p[s.size()] = '\0';
    return p;
}

void setError(char **error, const std::string &message) {
    if (error == nullptr) return;
    // Never throw from here: we are already reporting a failure.
    char *p = static_cast<char *>(std::malloc(message.size() + 1));
    if (p == nullptr) {
        *error = nullptr;
        return;
    }
    std::memcpy(p, message.data(), message.size());
    p[message.size()] = '\0';
    *error = p;
}

llx_status statusFor(int code) {
    switch (code) {
    case Exiv2::kerDataSourceOpenFailed:
    case Exiv2::kerFileOpenFailed:
    case Exiv2::kerFailedToMapFileForReadWrite:
        return LLX_ERR_IO;
    case Exiv2::kerNotAnImage:
    case Exiv2::kerFileContainsUnknownImageType:
    case Exiv2::kerMemoryContainsUnknownImageType:
    case Exiv2::kerNotAJpeg:
    case Exiv2::kerNoImageInInputData:
        return LLX_ERR_NOT_IMAGE;
    case Exiv2::kerUnsupportedImageType:
    case Exiv2::kerWritingImageFormatUnsupported:
    case Exiv2::kerFunctionNotSupported:
    case Exiv2::kerInvalidSettingForImage:
        return LLX_ERR_UNSUPPORTED;
    default:
        return LLX_ERR_MALFORMED;
    }
}

// Runs `body`, turning every exception into a status and a message.
template <typename Body>
llx_status guarded(char **error, Body body) {
    if (error != nullptr) *error = nullptr;
    try {
        initialiseOnce();
        return body();
    } catch (const Exiv2::AnyError &e) {
        setError(error, std::string("exiv2: ") + e.what());
        return statusFor(e.code());
    } catch (const std::bad_alloc &) {
        setError(error, "out of memory");
        return LLX_ERR_INTERNAL;
    } catch (const std::exception &e) {
        setError(error, std::string("exiv2 (C++ exception): ") + e.what());
        return LLX_ERR_MALFORMED;
    } catch (...) {
        setError(error, "exiv2: unknown exception");
        return LLX_ERR_INTERNAL;
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

void freeProperty(llx_property &p) {
    std::free(p.key);
    std::free(p.type_name);
    std::free(p.value);
    std::free(p.raw);
    p.key = p.type_name = p.value = nullptr;
    p.raw = nullptr;
    p.raw_len = 0;
}

// Owns the properties while they are collected, so an exception half-way frees them.
struct PropertyList {
    std::vector<llx_property> items;
    std::vector<std::string> prefixes;

    ~PropertyList() {
        for (auto &p : items) freeProperty(p);
    }

    bool wanted(const std::string &key) const {
        if (prefixes.empty()) return true;
        for (const auto &prefix : prefixes) {
            if (key.compare(0, prefix.size(), prefix) == 0) return true;
        }
        return false;
    }

    // Push an empty slot first, so its fields are freed by the destructor if a copy throws.
    llx_property &add(llx_family family, const std::string &key, const char *typeName, int typeId, long count) {
        items.push_back(llx_property());
        llx_property &p = items.back();
        std::memset(&p, 0, sizeof p);
        p.family = family;
        p.type_id = typeId;
        p.count = count;
        p.key = copyString(key);
        p.type_name = copyString(typeName != nullptr ? typeName : "Unknown");
        return p;
    }
};

bool isByteLike(Exiv2::TypeId t) {
    return t == Exiv2::undefined || t == Exiv2::unsignedByte || t == Exiv2::signedByte;
}

void collectExif(const Exiv2::ExifData &exif, PropertyList &list) {
    for (Exiv2::ExifData::const_iterator it = exif.begin(); it != exif.end(); ++it) {
        const std::string key = it->key();
        if (!list.wanted(key)) continue;
        llx_property &p = list.add(LLX_EXIF, key, it->typeName(), static_cast<int>(it->typeId()), it->count());
        if (isByteLike(it->typeId())) {
            const long size = it->size();
            if (size > 0) {
                std::vector<Exiv2::byte> buffer(static_cast<size_t>(size));
                const long copied = it->copy(buffer.data(), Exiv2::bigEndian);
                if (copied > 0 && copied <= size) {
                    p.raw = static_cast<unsigned char *>(std::malloc(static_cast<size_t>(copied)));
                    if (p.raw == nullptr) throw std::bad_alloc();
                    std::memcpy(p.raw, buffer.data(), static_cast<size_t>(copied));
                    p.raw_len = static_cast<size_t>(copied);
                }
            }
        } else {
            p.value = copyString(it->toString());
        }
    }
}

template <typename Data>
void collectText(const Data &data, llx_family family, PropertyList &list) {
    for (typename Data::const_iterator it = data.begin(); it != data.end(); ++it) {
        const std::string key = it->key();
        if (!list.wanted(key)) continue;
        llx_property &p = list.add(family, key, it->typeName(), static_cast<int>(it->typeId()), it->count());
        p.value = copyString(it->toString());
    }
}

// ---------------------------------------------------------------------------------------------
// A read-only file for exiv2 that keeps its position in memory and reads with pread(2).
//
// exiv2's FileIo goes through stdio: every seek is an lseek(2) (and a buffer refill), every
// size() a stat(2), and ImageFactory::open plus readMetadata open the file three times. Its BMFF
// parser seeks before every box, so one HEIC cost about 350 system calls; this costs one open,
// an fstat per open and a pread per 16 KiB window touched (issue 4). Semantics follow FileIo: a seek
// anywhere at or after 0 succeeds and clears eof; a read that reaches the end sets it; a
// DataBuf read larger than the file is refused before anything is allocated.

class PreadIo : public Exiv2::BasicIo {
public:
    explicit PreadIo(const std::string &path) : path_(path) {}
    // A file the caller has open and keeps: read, never closed here, its size as the caller's
    // fstat saw it (open() does not ask again); `head` is its first bytes, already read, which
    // become the read-ahead window.
    PreadIo(int fd, size_t size, const std::string &path, const Exiv2::byte *head, size_t headLength)
        : path_(path), fd_(fd), ownsFd_(false), size_(size) {
        if (head != nullptr) {
            windowLength_ = std::min({headLength, sizeof(window_), size});
            std::memcpy(window_, head, windowLength_);
        }
    }
    ~PreadIo() override {
        munmap();
        if (fd_ >= 0 && ownsFd_) ::close(fd_);
    }

    int open() override {
        if (fd_ < 0) {
            int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) return 1;
            fd_ = fd;
        }
        // Opened again (exiv2 opens once to sniff the type and again to read): the same
        // descriptor, from the start. A file of our own has its size taken afresh: one whose size
        // changed in between loses its mapping (never mapped past its end) and its read-ahead
        // window; an unchanged one keeps the window, so the header is not read once per open.
        // The caller's descriptor keeps the size the caller saw (a file that shrinks under the
        // read ends early, as any read past its end).
        if (ownsFd_) {
            struct stat st;
            if (::fstat(fd_, &st) != 0 || st.st_size < 0) return 1;
            if (static_cast<size_t>(st.st_size) != size_) {
                munmap();
                windowStart_ = 0;
                windowLength_ = 0;
            }
            size_ = static_cast<size_t>(st.st_size);
        }
        open_ = true;
        pos_ = 0;
        eof_ = false;
        error_ = 0;
        return 0;
    }

    // The descriptor stays until destruction, so the next open() costs nothing.
    int close() override {
        open_ = false;
        return 0;
    }

    long write(const Exiv2::byte *, long) override { return 0; }
    long write(Exiv2::BasicIo &) override { return 0; }
    int putb(Exiv2::byte) override { return EOF; }
    void transfer(Exiv2::BasicIo &) override {
        throw Exiv2::Error(Exiv2::kerFunctionNotSupported, "PreadIo::transfer (read-only)");
    }

    Exiv2::DataBuf read(long rcount) override {
        if (rcount < 0 || static_cast<size_t>(rcount) > size_) throw Exiv2::Error(Exiv2::kerInvalidMalloc);
        Exiv2::DataBuf buf(rcount);
        long n = read(buf.pData_, buf.size_);
        if (n < 0) throw Exiv2::Error(Exiv2::kerInputDataReadFailed);
        buf.size_ = n;
        return buf;
    }

    long read(Exiv2::byte *buf, long rcount) override {
        if (!open_ || rcount <= 0) return 0;
        long done = 0;
        while (done < rcount) {
            if (pos_ >= size_) {
                eof_ = true;
                break;
            }
            // Within the window: copy. A large read goes straight to the caller's buffer.
            if (pos_ >= windowStart_ && pos_ < windowStart_ + windowLength_) {
                size_t at = static_cast<size_t>(pos_ - windowStart_);
                size_t n = std::min(windowLength_ - at, static_cast<size_t>(rcount - done));
                std::memcpy(buf + done, window_ + at, n);
                done += static_cast<long>(n);
                pos_ += n;
                continue;
            }
            // Never past the end (the kernel would only answer 0 there): a read that reaches it
            // stops there, as FileIo's does, and sets eof.
            size_t asked = static_cast<size_t>(rcount - done);
            size_t want = std::min(asked, size_ - pos_);
            if (want >= sizeof(window_)) {
                ssize_t n = preadFully(buf + done, want, pos_);
                if (n < 0) return fail(done);
                done += n;
                pos_ += static_cast<size_t>(n);
                if (static_cast<size_t>(n) < asked) eof_ = true;
                break;
            }
            ssize_t n = preadFully(window_, std::min(sizeof(window_), size_ - pos_), pos_);
            if (n < 0) return fail(done);
            windowStart_ = pos_;
            windowLength_ = static_cast<size_t>(n);
            if (n == 0) {
                eof_ = true;
                break;
            }
        }
        return done;
    }

    int getb() override {
        Exiv2::byte b;
        return read(&b, 1) == 1 ? b : EOF;
    }

    int seek(int64_t offset, Position pos) override {
        int64_t base = 0;
        switch (pos) {
        case beg: base = 0; break;
        case cur: base = static_cast<int64_t>(pos_); break;
        case end: base = static_cast<int64_t>(size_); break;
        }
        if ((offset > 0 && base > INT64_MAX - offset) || base + offset < 0) return 1;
        pos_ = static_cast<size_t>(base + offset);
        eof_ = false;
        return 0;
    }

    Exiv2::byte *mmap(bool isWriteable) override {
        if (isWriteable) throw Exiv2::Error(Exiv2::kerFunctionNotSupported, "PreadIo::mmap for writing (read-only)");
        if (map_ != nullptr) return map_;
        if (fd_ < 0 || size_ == 0) throw Exiv2::Error(Exiv2::kerCallFailed, path_, "mmap", "no open file");
        // The size was taken when the file was opened (by the caller, or by open()): a file cut
        // shorter since is refused here, never mapped past its end (a touch there is SIGBUS, the
        // whole scan, where a read would end early).
        struct stat st;
        if (::fstat(fd_, &st) != 0 || st.st_size < 0 || static_cast<size_t>(st.st_size) < size_)
            throw Exiv2::Error(Exiv2::kerCallFailed, path_, "file changed while it was read", "mmap");
        void *p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
        if (p == MAP_FAILED) throw Exiv2::Error(Exiv2::kerCallFailed, path_, std::strerror(errno), "mmap");
        map_ = static_cast<Exiv2::byte *>(p);
        return map_;
    }

    int munmap() override {
        if (map_ == nullptr) return 0;
        int rc = ::munmap(map_, size_);
        map_ = nullptr;
        return rc;
    }

    long tell() const override { return static_cast<long>(pos_); }

    size_t size() const override {
        if (fd_ >= 0) return size_;
        struct stat st;
        if (::stat(path_.c_str(), &st) != 0) return static_cast<size_t>(-1);
        return static_cast<size_t>(st.st_size);
    }

    bool isopen() const override { return open_; }
    int error() const override { return error_; }
    bool eof() const override { return eof_; }
    std::string path() const override { return path_; }
#ifdef EXV_UNICODE_PATH
    std::wstring wpath() const override { return std::wstring(path_.begin(), path_.end()); }
#endif
    void populateFakeData() override {}

private:
    ssize_t preadFully(Exiv2::byte *buf, size_t count, size_t at) {
        size_t done = 0;
        while (done < count) {
            ssize_t n = ::pread(fd_, buf + done, count - done, static_cast<off_t>(at + done));
            if (n < 0) {
                if (errno == EINTR) continue;
                return -1;
            }
            if (n == 0) break;
            done += static_cast<size_t>(n);
        }
        return static_cast<ssize_t>(done);
    }

    // As FileIo (fread): what was read before the failure, with the error flag set.
    long fail(long done) {
        error_ = 1;
        return done;
    }

    std::string path_;
    int fd_ = -1;
    bool ownsFd_ = true;
    bool open_ = false;
    bool eof_ = false;
    int error_ = 0;
    size_t size_ = 0;
    size_t pos_ = 0;
    Exiv2::byte window_[16384];
    size_t windowStart_ = 0;
    size_t windowLength_ = 0;
    Exiv2::byte *map_ = nullptr;
};

llx_status readImage(Exiv2::BasicIo::AutoPtr io, const char *const *prefixes, size_t prefixCount,
                     llx_image_info **out, char **error) {
    if (out == nullptr) {
        setError(error, "no output pointer");
        return LLX_ERR_INTERNAL;
    }
    *out = nullptr;
    // exiv2 reports an empty input as a read failure; it is simply not an image.
    if (io->size() == 0) {
        setError(error, "empty file: no image data");
        return LLX_ERR_NOT_IMAGE;
    }
    Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(io);
    if (image.get() == nullptr) {
        setError(error, "not an image format exiv2 recognises");
        return LLX_ERR_NOT_IMAGE;
    }
    image->readMetadata();

    PropertyList list;
    if (prefixes != nullptr) {
        for (size_t i = 0; i < prefixCount; ++i) {
            if (prefixes[i] != nullptr) list.prefixes.push_back(prefixes[i]);
        }
    }
    collectExif(image->exifData(), list);
    collectText(image->xmpData(), LLX_XMP, list);
    collectText(image->iptcData(), LLX_IPTC, list);

    llx_image_info *info = static_cast<llx_image_info *>(std::calloc(1, sizeof(llx_image_info)));
    if (info == nullptr) throw std::bad_alloc();
    info->width = image->pixelWidth();
    info->height = image->pixelHeight();
    try {
        info->mime_type = copyString(image->mimeType());
    } catch (...) {
        std::free(info);
        throw;
    }
    if (!list.items.empty()) {
        info->properties = static_cast<llx_property *>(std::calloc(list.items.size(), sizeof(llx_property)));
        if (info->properties == nullptr) {
            llx_image_info_free(info);
            throw std::bad_alloc();
        }
        // Hand the strings over: the list no longer owns them.
        std::memcpy(info->properties, list.items.data(), list.items.size() * sizeof(llx_property));
        info->property_count = list.items.size();
        list.items.clear();
    }
    *out = info;
    return LLX_OK;
}

bool isMakerNoteGroup(const std::string &group) {
    return group == "MakerNote" || Exiv2::ExifTags::isMakerGroup(group);
}

} // namespace

extern "C" {

llx_status llx_read_path(const char *path, const char *const *key_prefixes, size_t prefix_count,
                         llx_image_info **out, char **error) {
    return guarded(error, [&]() -> llx_status {
        if (path == nullptr) {
            setError(error, "no path");
            return LLX_ERR_IO;
        }
        // Our own file, not ImageFactory::open(path): that one would fetch "http://..." paths.
        Exiv2::BasicIo::AutoPtr io(new PreadIo(path));
        return readImage(io, key_prefixes, prefix_count, out, error);
    });
}

llx_status llx_read_fd(int fd, int64_t size, const char *path, const unsigned char *head, size_t head_length,
                       const char *const *key_prefixes, size_t prefix_count, llx_image_info **out, char **error) {
    return guarded(error, [&]() -> llx_status {
        if (fd < 0 || size < 0) {
            setError(error, "no open file");
            return LLX_ERR_IO;
        }
        Exiv2::BasicIo::AutoPtr io(new PreadIo(fd, static_cast<size_t>(size), path != nullptr ? path : "", head, head_length));
        return readImage(io, key_prefixes, prefix_count, out, error);
    });
}

llx_status llx_read_buffer(const unsigned char *data, size_t length, const char *const *key_prefixes,
                           size_t prefix_count, llx_image_info **out, char **error) {
    return guarded(error, [&]() -> llx_status {
        if (length > static_cast<size_t>(LONG_MAX)) {
            setError(error, "buffer too large");
            return LLX_ERR_UNSUPPORTED;
        }
        static const unsigned char empty = 0;
        const unsigned char *bytes = (data != nullptr) ? data : &empty;
        Exiv2::BasicIo::AutoPtr io(new Exiv2::MemIo(bytes, data != nullptr ? static_cast<long>(length) : 0));
        return readImage(io, key_prefixes, prefix_count, out, error);
    });
}

llx_status llx_jpeg_set_makernote(const unsigned char *jpeg, size_t jpeg_length,
                                  const unsigned char *maker_note, size_t maker_note_length,
                                  const char *make, const char *model, const char *date_time_original,
                                  unsigned char **out, size_t *out_length, char **error) {
    return guarded(error, [&]() -> llx_status {
        if (out == nullptr || out_length == nullptr) {
            setError(error, "no output pointer");
            return LLX_ERR_INTERNAL;
        }
        *out = nullptr;
        *out_length = 0;
        if (jpeg == nullptr || jpeg_length == 0) {
            setError(error, "empty input");
            return LLX_ERR_NOT_IMAGE;
        }
        if (jpeg_length > static_cast<size_t>(LONG_MAX) || maker_note_length > 0xFFFFu) {
            setError(error, "input too large for a JPEG Exif segment");
            return LLX_ERR_UNSUPPORTED;
        }
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(jpeg, static_cast<long>(jpeg_length));
        if (image.get() == nullptr) {
            setError(error, "not an image format exiv2 recognises");
            return LLX_ERR_NOT_IMAGE;
        }
        if (image->imageType() != Exiv2::ImageType::jpeg) {
            setError(error, "exiv2 writes the MakerNote into JPEG only (" + image->mimeType() + " is read-only here)");
            return LLX_ERR_UNSUPPORTED;
        }
        image->readMetadata();
        Exiv2::ExifData &exif = image->exifData();

        // Drop any makernote exiv2 decoded (Exif.Canon.*, Exif.MakerNote.Offset, ...) and the raw one,
        // so the new bytes are written as they are and not re-encoded from stale tags.
        for (Exiv2::ExifData::iterator it = exif.begin(); it != exif.end();) {
            if (isMakerNoteGroup(it->groupName()) || it->key() == "Exif.Photo.MakerNote") {
                it = exif.erase(it);
            } else {
                ++it;
            }
        }
        Exiv2::DataValue value(Exiv2::undefined);
        if (maker_note != nullptr && maker_note_length > 0) {
            value.read(maker_note, static_cast<long>(maker_note_length), Exiv2::bigEndian);
        }
        exif["Exif.Photo.MakerNote"].setValue(&value);
        if (make != nullptr) exif["Exif.Image.Make"] = std::string(make);
        if (model != nullptr) exif["Exif.Image.Model"] = std::string(model);
        if (date_time_original != nullptr) exif["Exif.Photo.DateTimeOriginal"] = std::string(date_time_original);
        image->writeMetadata();

        Exiv2::BasicIo &io = image->io();
        if (io.open() != 0) {
            setError(error, "cannot reopen the written image");
            return LLX_ERR_INTERNAL;
        }
        const long size = io.size();
        if (size <= 0) {
            io.close();
            setError(error, "exiv2 wrote an empty image");
            return LLX_ERR_INTERNAL;
        }
        unsigned char *bytes = static_cast<unsigned char *>(std::malloc(static_cast<size_t>(size)));
        if (bytes == nullptr) {
            io.close();
            throw std::bad_alloc();
        }
        io.seek(0, Exiv2::BasicIo::beg);
        const long got = io.read(bytes, size);
        io.close();
        if (got != size) {
            std::free(bytes);
            setError(error, "short read of the written image");
            return LLX_ERR_INTERNAL;
        }
        *out = bytes;
        *out_length = static_cast<size_t>(size);
        return LLX_OK;
    });
}

llx_status llx_tiff_set_makernote(const unsigned char *tiff, size_t tiff_length,
                                  const unsigned char *maker_note, size_t maker_note_length,
                                  const char *make_if_absent,
                                  unsigned char **out, size_t *out_length, char **error) {
    return guarded(error, [&]() -> llx_status {
        if (out == nullptr || out_length == nullptr) {
            setError(error, "no output pointer");
            return LLX_ERR_INTERNAL;
        }
        *out = nullptr;
        *out_length = 0;
        if (tiff == nullptr || tiff_length < 8) {
            setError(error, "the Exif TIFF structure is empty or shorter than its header");
            return LLX_ERR_MALFORMED;
        }
        const bool bigEndian = tiff[0] == 'M' && tiff[1] == 'M' && tiff[2] == 0 && tiff[3] == 42;
        const bool littleEndian = tiff[0] == 'I' && tiff[1] == 'I' && tiff[2] == 42 && tiff[3] == 0;
        if (!bigEndian && !littleEndian) {
            setError(error, "the Exif data does not start with a TIFF header (MM\\0* or II*\\0)");
            return LLX_ERR_MALFORMED;
        }
        if (tiff_length > 0x7FFFFFFFu || maker_note_length > 0x7FFFFFFFu) {
            setError(error, "the Exif data is too large");
            return LLX_ERR_UNSUPPORTED;
        }
        Exiv2::ExifData exif;
        const Exiv2::ByteOrder order = Exiv2::ExifParser::decode(exif, tiff, static_cast<uint32_t>(tiff_length));
        if (order == Exiv2::invalidByteOrder) {
            setError(error, "exiv2 could not decode the Exif TIFF structure");
            return LLX_ERR_MALFORMED;
        }
        for (Exiv2::ExifData::iterator it = exif.begin(); it != exif.end();) {
            if (isMakerNoteGroup(it->groupName()) || it->key() == "Exif.Photo.MakerNote") {
                it = exif.erase(it);
            } else {
                ++it;
            }
        }
        if (maker_note != nullptr) {
            Exiv2::DataValue value(Exiv2::undefined);
            if (maker_note_length > 0) value.read(maker_note, static_cast<long>(maker_note_length), order);
            exif["Exif.Photo.MakerNote"].setValue(&value);
        }
        if (make_if_absent != nullptr && exif.findKey(Exiv2::ExifKey("Exif.Image.Make")) == exif.end()) {
            exif["Exif.Image.Make"] = std::string(make_if_absent);
        }
        Exiv2::Blob blob;
        Exiv2::ExifParser::encode(blob, order, exif);
        if (blob.size() < 8) {
            setError(error, "exiv2 encoded an empty Exif structure");
            return LLX_ERR_INTERNAL;
        }
        unsigned char *bytes = static_cast<unsigned char *>(std::malloc(blob.size()));
        if (bytes == nullptr) throw std::bad_alloc();
        std::memcpy(bytes, blob.data(), blob.size());
        *out = bytes;
        *out_length = blob.size();
        return LLX_OK;
    });
}

llx_status llx_read_preview(const char *path, size_t max_bytes, int min_width,
                            unsigned char **out, size_t *out_length, char **mime_type,
                            int *width, int *height, char **error) {
    return guarded(error, [&]() -> llx_status {
        if (path == nullptr || out == nullptr || out_length == nullptr || mime_type == nullptr ||
            width == nullptr || height == nullptr) {
            setError(error, "no path or output pointer");
            return LLX_ERR_INTERNAL;
        }
        *out = nullptr;
        *out_length = 0;
        *mime_type = nullptr;
        *width = 0;
        *height = 0;
        Exiv2::BasicIo::AutoPtr io(new PreadIo(path));
        if (io->size() == 0) {
            setError(error, "empty file: no image data");
            return LLX_ERR_NOT_IMAGE;
        }
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(io);
        if (image.get() == nullptr) {
            setError(error, "not an image format exiv2 recognises");
            return LLX_ERR_NOT_IMAGE;
        }
        image->readMetadata();
        Exiv2::PreviewManager manager(*image);
        Exiv2::PreviewPropertiesList list = manager.getPreviewProperties();
        // exiv2 lists them smallest first (by pixel count): the first wide enough is the smallest
        // that will do; without one, the widest.
        const Exiv2::PreviewProperties *chosen = nullptr;
        const Exiv2::PreviewProperties *widest = nullptr;
        for (const Exiv2::PreviewProperties &p : list) {
            if (p.size_ == 0 || p.size_ > max_bytes) continue;
            if (widest == nullptr || p.width_ > widest->width_) widest = &p;
            if (chosen == nullptr && p.width_ <= static_cast<uint32_t>(INT_MAX) &&
                static_cast<int>(p.width_) >= min_width) chosen = &p;
        }
        const Exiv2::PreviewProperties *best = chosen != nullptr ? chosen : widest;
        if (best == nullptr) {
            setError(error, "no embedded preview within the size limit");
            return LLX_ERR_UNSUPPORTED;
        }
        Exiv2::PreviewImage preview = manager.getPreviewImage(*best);
        const size_t length = preview.size();
        if (length == 0 || length > max_bytes) {
            setError(error, "the embedded preview is empty or larger than announced");
            return LLX_ERR_MALFORMED;
        }
        unsigned char *bytes = static_cast<unsigned char *>(std::malloc(length));
        if (bytes == nullptr) throw std::bad_alloc();
        std::memcpy(bytes, preview.pData(), length);
        char *mime = nullptr;
        try {
            mime = copyString(preview.mimeType());
        } catch (...) {
            std::free(bytes);
            throw;
        }
        *out = bytes;
        *out_length = length;
        *mime_type = mime;
        *width = static_cast<int>(std::min<uint32_t>(preview.width(), INT_MAX));
        *height = static_cast<int>(std::min<uint32_t>(preview.height(), INT_MAX));
        return LLX_OK;
    });
}

void llx_image_info_free(llx_image_info *info) {
    if (info == nullptr) return;
    for (size_t i = 0; i < info->property_count; ++i) freeProperty(info->properties[i]);
    std::free(info->properties);
    std::free(info->mime_type);
    std::free(info);
}

void llx_free(void *pointer) { std::free(pointer); }

const char *llx_exiv2_version(void) { return Exiv2::version(); }

} // extern "C"
