/*
 * cmediainfo.h: the only door to libmediainfo. A small C API over its C API (MediaInfoDLL.cpp,
 * the MediaInfoA_* functions exported by libmediainfo.so), which is C++ inside: every entry point
 * catches every exception and reports it through an out-parameter, as cexiv2.h does for exiv2.
 *
 * The library is loaded with dlopen the first time a file needs it, as Debian's own
 * MediaInfoDLL.h does, and never linked: `lint` never calls this, and so never maps libmediainfo
 * nor the ~30 libraries it pulls in (libcurl, GnuTLS, Kerberos, …), about 6 MiB resident.
 *
 * Ownership: everything handed out is malloc'd. Free values with llmi_values_free(), error
 * messages with llmi_free().
 *
 * Threads: the library is loaded once, thread-safely; each call works on its own MediaInfo
 * handle, so different files may be read on different threads at once.
 */
#ifndef LIVELINT_CMEDIAINFO_H
#define LIVELINT_CMEDIAINFO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes of every entry point (the same meanings as cexiv2.h's llx_status). */
typedef enum llmi_status {
    LLMI_OK = 0,
    /* The operating system refused (no path). */
    LLMI_ERR_IO = 1,
    /* libmediainfo cannot open or does not recognise the file. */
    LLMI_ERR_NOT_RECOGNISED = 2,
    /* libmediainfo threw a C++ exception while reading. */
    LLMI_ERR_MALFORMED = 3,
    /* libmediainfo is not installed, or lacks an entry point. */
    LLMI_ERR_UNSUPPORTED = 4,
    /* Anything else: an unknown exception, a failed allocation. */
    LLMI_ERR_INTERNAL = 5
} llmi_status;

/* MediaInfo's stream_t (MediaInfoDLL.h), the stream kinds a query names. */
typedef enum {
    LLMediaInfoStreamGeneral = 0,
    LLMediaInfoStreamVideo = 1,
    LLMediaInfoStreamAudio = 2,
    LLMediaInfoStreamText = 3,
    LLMediaInfoStreamOther = 4,
    LLMediaInfoStreamImage = 5,
    LLMediaInfoStreamMenu = 6,
} LLMediaInfoStream;

/* MediaInfo's info_t: what of a field is asked for (its name or its text). */
typedef enum {
    LLMediaInfoInfoName = 0,
    LLMediaInfoInfoText = 1,
} LLMediaInfoInfo;

/* One query: the streams of kind `stream_kind` (an LLMediaInfoStream) and the fields wanted of each. */
typedef struct llmi_query {
    int stream_kind;
    const char *const *fields;
    size_t field_count;
} llmi_query;

typedef struct llmi_value {
    /* Index into the queries array, stream number within that kind, index into its fields. */
    size_t query_index;
    size_t stream_index;
    size_t field_index;
    char *text;
} llmi_value;

/*
 * For each query, the streams of its kind, at most `max_streams` of them, and for each stream
 * every field of `fields` whose text is not empty. The whole open / query / close runs inside one
 * guard: an exception or a failed allocation gives LLMI_ERR_MALFORMED / LLMI_ERR_INTERNAL and a
 * message, never a crash. LLMI_ERR_NOT_RECOGNISED when libmediainfo cannot open or recognise the
 * file; LLMI_ERR_UNSUPPORTED when the library cannot be loaded. On LLMI_OK, *out holds *out_count
 * values (possibly none); free with llmi_values_free().
 */
llmi_status llmi_read(const char *path, const llmi_query *queries, size_t query_count, size_t max_streams,
                      llmi_value **out, size_t *out_count, char **error);

/* Free what llmi_read returned (NULL is fine). */
void llmi_values_free(llmi_value *values, size_t count);

/* Free an error message (NULL is fine). */
void llmi_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* LIVELINT_CMEDIAINFO_H */
