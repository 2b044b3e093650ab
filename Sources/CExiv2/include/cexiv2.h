/*
 * cexiv2.h: the only door to libexiv2 (0.27). A small C API over exiv2's C++ one, in the
 * manner of GNOME/gexiv2 (gexiv2-metadata.cpp): every entry point catches every exception and
 * reports it through an out-parameter, exiv2's own logging is silenced, nothing reaches stderr.
 *
 * Ownership: everything the shim hands out is malloc'd. Free a read result with
 * llx_image_info_free(), and every other pointer (error messages, written bytes) with llx_free().
 *
 * Threads: each call works on its own Exiv2::Image, so independent images may be read on
 * different threads at once. One-time initialisation (XMP toolkit, BMFF, logging) happens inside
 * the first call, guarded by std::call_once.
 */
#ifndef LIVELINT_CEXIV2_H
#define LIVELINT_CEXIV2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes of every entry point. */
typedef enum llx_status {
    LLX_OK = 0,
    /* The operating system refused: the file is missing or unreadable. */
    LLX_ERR_IO = 1,
    /* Not an image format exiv2 knows (garbage, empty, a movie). */
    LLX_ERR_NOT_IMAGE = 2,
    /* exiv2 recognised the format but the bytes contradict it (truncated, corrupt). */
    LLX_ERR_MALFORMED = 3,
    /* A valid input exiv2 cannot handle here (e.g. writing HEIC). */
    LLX_ERR_UNSUPPORTED = 4,
    /* Anything else: an unexpected exception. */
    LLX_ERR_INTERNAL = 5
} llx_status;

/* Metadata families. */
typedef enum llx_family { LLX_EXIF = 0, LLX_XMP = 1, LLX_IPTC = 2 } llx_family;

/* One Exif / XMP / IPTC datum. */
typedef struct llx_property {
    llx_family family;
    /* exiv2's key, e.g. "Exif.Photo.MakerNote". Never NULL. */
    char *key;
    /* exiv2's type name ("Ascii", "Short", "Undefined", "XmpText"); "Unknown" when exiv2 has none. */
    char *type_name;
    /* exiv2's Exiv2::TypeId number. */
    int type_id;
    /* Number of components (exiv2's count()). */
    long count;
    /* exiv2's toString(): values separated by spaces, rationals as "n/d". NULL for Exif
       undefined / byte values, whose bytes are in `raw` instead. */
    char *value;
    /* Raw bytes for Exif undefined, unsigned-byte and signed-byte values; NULL otherwise. */
    unsigned char *raw;
    size_t raw_len;
} llx_property;

/* What a read returns. */
typedef struct llx_image_info {
    /* Pixel dimensions as exiv2 reports them; 0 when unknown. */
    int width;
    int height;
    /* exiv2's MIME type ("image/jpeg", "image/heic"). */
    char *mime_type;
    llx_property *properties;
    size_t property_count;
} llx_image_info;

/*
 * Read the metadata of the image at `path` (never written to; opened read-only through the
 * shim's own pread(2) BasicIo, so URLs are never fetched). `key_prefixes`/`prefix_count` select
 * which keys are returned: a key is kept when it starts with one of the prefixes; pass NULL/0 for
 * every key.
 * Returns LLX_OK and sets *out, or an error code and sets *error (both owned by the caller).
 */
llx_status llx_read_path(const char *path, const char *const *key_prefixes, size_t prefix_count,
                         llx_image_info **out, char **error);

/*
 * The same, from a file the caller has open (`fd`, read with pread(2) and never closed here; its
 * size `size` as the caller's fstat(2) saw it, not asked again), shown as `path` in messages: no
 * second open, and no lookup of the path, per image. `head`/`head_length` (NULL/0 for none) are
 * the file's first bytes as the caller already read them: exiv2 reads them from there instead of
 * asking the kernel again (a small file is then read once in all).
 */
llx_status llx_read_fd(int fd, int64_t size, const char *path, const unsigned char *head, size_t head_length,
                       const char *const *key_prefixes, size_t prefix_count, llx_image_info **out, char **error);

/* The same, from bytes in memory (e.g. a `.livp` member). The buffer is only read. */
llx_status llx_read_buffer(const unsigned char *data, size_t length, const char *const *key_prefixes,
                           size_t prefix_count, llx_image_info **out, char **error);

/*
 * Write into a JPEG held in memory: set Exif.Photo.MakerNote to `maker_note` (type undefined),
 * dropping any makernote exiv2 had decoded, and set Exif.Image.Make / Exif.Image.Model /
 * Exif.Photo.DateTimeOriginal when the matching argument is non-NULL. Other metadata is kept.
 * On LLX_OK, *out / *out_length hold the new file (free with llx_free). Non-JPEG input (HEIC is
 * read-only in exiv2 0.27) gives LLX_ERR_UNSUPPORTED.
 */
llx_status llx_jpeg_set_makernote(const unsigned char *jpeg, size_t jpeg_length,
                                  const unsigned char *maker_note, size_t maker_note_length,
                                  const char *make, const char *model, const char *date_time_original,
                                  unsigned char **out, size_t *out_length, char **error);

/*
 * Rewrite a bare Exif TIFF structure in memory (bytes starting with the TIFF header "MM\0*" or
 * "II*\0", as stored in a HEIC's Exif item after its 4-byte offset prefix): decode it with
 * Exiv2::ExifParser::decode, drop any makernote exiv2 decoded, set Exif.Photo.MakerNote to
 * `maker_note` (type undefined), set Exif.Image.Make to `make_if_absent` when non-NULL and the
 * TIFF has no Make, and re-encode with Exiv2::ExifParser::encode in the input's byte order.
 * `maker_note` NULL removes the makernote instead (a converter's output, for tests).
 * Other tags are kept (exiv2's encoder drops only what it drops for a JPEG Exif: strip offsets,
 * IFDs that never occur in a JPEG). On LLX_OK, *out / *out_length hold the new TIFF (free with
 * llx_free). Bytes that are not a TIFF give LLX_ERR_MALFORMED.
 */
llx_status llx_tiff_set_makernote(const unsigned char *tiff, size_t tiff_length,
                                  const unsigned char *maker_note, size_t maker_note_length,
                                  const char *make_if_absent,
                                  unsigned char **out, size_t *out_length, char **error);

/*
 * The embedded preview of the image at `path` that best suits a thumbnail, through exiv2's
 * PreviewManager (Exif IFD1 thumbnail, makernote and XMP previews): among the previews whose
 * data is at most `max_bytes`, the smallest one at least `min_width` pixels wide, else the
 * widest. No pixel is decoded: the preview's bytes are copied as stored (normally a JPEG).
 * On LLX_OK, *out / *out_length hold the bytes (free with llx_free), *mime_type its MIME type
 * (free with llx_free), *width / *height its size as exiv2 reports it. An image without a
 * usable preview gives LLX_ERR_UNSUPPORTED. Opened read-only through the shim's pread(2) BasicIo.
 */
llx_status llx_read_preview(const char *path, size_t max_bytes, int min_width,
                            unsigned char **out, size_t *out_length, char **mime_type,
                            int *width, int *height, char **error);

/* Free a read result (NULL is fine). */
void llx_image_info_free(llx_image_info *info);

/* Free any other pointer the shim returned (NULL is fine). */
void llx_free(void *pointer);

/* The linked exiv2's version string ("0.27.6"). Static storage: do not free. */
const char *llx_exiv2_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIVELINT_CEXIV2_H */
