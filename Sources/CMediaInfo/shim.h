// The constants of libmediainfo's C API (MediaInfoDLL.cpp, the MediaInfoA_* functions exported
// by libmediainfo.so) that livelint passes. The functions themselves are called only from the
// C++ shim (CExiv2Shim), which loads the library with dlopen the first time a file needs it, as
// Debian's own MediaInfoDLL.h does: `lint` never does, and so never pays for libmediainfo and the
// ~30 libraries it pulls in (libcurl, GnuTLS, Kerberos, …), about 6 MiB of resident memory.
#ifndef LIVELINT_CMEDIAINFO_SHIM_H
#define LIVELINT_CMEDIAINFO_SHIM_H
#include <stddef.h>

typedef enum {
    LLMediaInfoStreamGeneral = 0,
    LLMediaInfoStreamVideo = 1,
    LLMediaInfoStreamAudio = 2,
    LLMediaInfoStreamText = 3,
    LLMediaInfoStreamOther = 4,
    LLMediaInfoStreamImage = 5,
    LLMediaInfoStreamMenu = 6,
} LLMediaInfoStream;

typedef enum {
    LLMediaInfoInfoName = 0,
    LLMediaInfoInfoText = 1,
} LLMediaInfoInfo;

#endif
