// The C++ side of cmediainfo.h: libmediainfo's C API (MediaInfoDLL.cpp, the MediaInfoA_*
// functions exported by libmediainfo.so), loaded with dlopen on first use, the way Debian's
// MediaInfoDLL.h does. Only `dump` (stream properties) needs it; `lint` never loads it, nor the
// libraries it links (libcurl, GnuTLS, Kerberos, LDAP, …: ~6 MiB resident and their start-up
// relocations). Enums travel as int. Every entry point runs inside guarded(), as in cexiv2's
// exiv2.cpp (modelled on GNOME/gexiv2): no C++ exception ever crosses into Swift.

#include "cmediainfo.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <dlfcn.h>

namespace {

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

// Runs `body`, turning every exception into a status and a message.
template <typename Body>
llmi_status guarded(char **error, Body body) {
    if (error != nullptr) *error = nullptr;
    try {
        return body();
    } catch (const std::bad_alloc &) {
        setError(error, "libmediainfo: out of memory");
        return LLMI_ERR_INTERNAL;
    } catch (const std::exception &e) {
        setError(error, std::string("libmediainfo (C++ exception): ") + e.what());
        return LLMI_ERR_MALFORMED;
    } catch (...) {
        setError(error, "libmediainfo: unknown exception");
        return LLMI_ERR_INTERNAL;
    }
}

// ---------------------------------------------------------------------------------------------
// Loading.

struct MediaInfoAPI {
    void *(*New)(void) = nullptr;
    void (*Delete)(void *) = nullptr;
    size_t (*Open)(void *, const char *) = nullptr;
    void (*Close)(void *) = nullptr;
    const char *(*Option)(void *, const char *, const char *) = nullptr;
    const char *(*Get)(void *, int, size_t, const char *, int, int) = nullptr;
    size_t (*Count_Get)(void *, int, size_t) = nullptr;
    // Why the library could not be used; empty when every entry point was found.
    std::string problem;
};

template <typename F>
bool bind(void *library, const char *name, F &slot, std::string &problem) {
    void *symbol = dlsym(library, name);
    if (symbol == nullptr) {
        if (problem.empty()) problem = std::string("libmediainfo has no ") + name;
        return false;
    }
    slot = reinterpret_cast<F>(symbol);
    return true;
}

MediaInfoAPI loadMediaInfo() {
    MediaInfoAPI api;
    void *library = nullptr;
    for (const char *name : {"libmediainfo.so.0", "libmediainfo.so"}) {
        library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (library != nullptr) break;
    }
    if (library == nullptr) {
        const char *why = dlerror();
        api.problem = std::string("libmediainfo is not installed (apt-get install libmediainfo0v5): ") + (why ? why : "dlopen failed");
        return api;
    }
    // Kept loaded for the life of the process (its handles may be in use on other threads).
    bind(library, "MediaInfoA_New", api.New, api.problem);
    bind(library, "MediaInfoA_Delete", api.Delete, api.problem);
    bind(library, "MediaInfoA_Open", api.Open, api.problem);
    bind(library, "MediaInfoA_Close", api.Close, api.problem);
    bind(library, "MediaInfoA_Option", api.Option, api.problem);
    bind(library, "MediaInfoA_Get", api.Get, api.problem);
    bind(library, "MediaInfoA_Count_Get", api.Count_Get, api.problem);
    return api;
}

// Loaded once, thread-safely (a function-local static).
const MediaInfoAPI &mediaInfo() {
    static const MediaInfoAPI api = loadMediaInfo();
    return api;
}

// Owns a MediaInfo handle: closed and deleted on every path out, exceptions included.
struct MediaInfoHandle {
    const MediaInfoAPI &api;
    void *handle = nullptr;
    bool open = false;
    explicit MediaInfoHandle(const MediaInfoAPI &loaded) : api(loaded), handle(loaded.New()) {}
    ~MediaInfoHandle() {
        if (handle == nullptr) return;
        try {
            if (open) api.Close(handle);
            api.Delete(handle);
        } catch (...) {
            // Nothing sane to do: the scan goes on.
        }
    }
    MediaInfoHandle(const MediaInfoHandle &) = delete;
    MediaInfoHandle &operator=(const MediaInfoHandle &) = delete;
};

// Owns collected values until they are handed over.
struct MediaInfoValues {
    std::vector<llmi_value> items;
    ~MediaInfoValues() {
        for (auto &v : items) std::free(v.text);
    }
};

} // namespace

extern "C" {

llmi_status llmi_read(const char *path, const llmi_query *queries, size_t query_count, size_t max_streams,
                      llmi_value **out, size_t *out_count, char **error) {
    return guarded(error, [&]() -> llmi_status {
        if (out == nullptr || out_count == nullptr) {
            setError(error, "no output pointer");
            return LLMI_ERR_INTERNAL;
        }
        *out = nullptr;
        *out_count = 0;
        if (path == nullptr) {
            setError(error, "no path");
            return LLMI_ERR_IO;
        }
        const MediaInfoAPI &api = mediaInfo();
        if (!api.problem.empty()) {
            setError(error, api.problem);
            return LLMI_ERR_UNSUPPORTED;
        }
        MediaInfoHandle mi(api);
        if (mi.handle == nullptr) {
            setError(error, "libmediainfo: cannot create a handle");
            return LLMI_ERR_INTERNAL;
        }
        api.Option(mi.handle, "Internet", "No");
        api.Option(mi.handle, "ParseSpeed", "0.3");
        if (api.Open(mi.handle, path) == 0) {
            setError(error, "libmediainfo does not recognise the file");
            return LLMI_ERR_NOT_RECOGNISED;
        }
        mi.open = true;
        MediaInfoValues values;
        for (size_t q = 0; q < query_count && queries != nullptr; ++q) {
            const llmi_query &query = queries[q];
            // (size_t)-1 asks for the number of streams of this kind.
            size_t streams = api.Count_Get(mi.handle, query.stream_kind, static_cast<size_t>(-1));
            if (streams > max_streams) streams = max_streams;
            for (size_t s = 0; s < streams; ++s) {
                for (size_t f = 0; f < query.field_count && query.fields != nullptr; ++f) {
                    if (query.fields[f] == nullptr) continue;
                    const char *text = api.Get(mi.handle, query.stream_kind, s, query.fields[f], 1, 0);
                    if (text == nullptr || text[0] == '\0') continue;
                    llmi_value v;
                    v.query_index = q;
                    v.stream_index = s;
                    v.field_index = f;
                    v.text = nullptr;
                    values.items.push_back(v);
                    values.items.back().text = copyString(std::string(text));
                }
            }
        }
        if (!values.items.empty()) {
            llmi_value *array =
                static_cast<llmi_value *>(std::calloc(values.items.size(), sizeof(llmi_value)));
            if (array == nullptr) throw std::bad_alloc();
            std::memcpy(array, values.items.data(), values.items.size() * sizeof(llmi_value));
            *out = array;
            *out_count = values.items.size();
            values.items.clear();
        }
        return LLMI_OK;
    });
}

void llmi_values_free(llmi_value *values, size_t count) {
    if (values == nullptr) return;
    for (size_t i = 0; i < count; ++i) std::free(values[i].text);
    std::free(values);
}

void llmi_free(void *pointer) { std::free(pointer); }

} // extern "C"
