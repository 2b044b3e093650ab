// The part of libmediainfo's C API (MediaInfoDLL.cpp, the MediaInfoA_* functions exported by
// libmediainfo.so) that livelint uses. Debian's MediaInfoDLL.h loads the library with dlopen;
// we link it directly instead, so we declare the few entry points ourselves.
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

void *MediaInfoA_New(void);
void MediaInfoA_Delete(void *handle);
size_t MediaInfoA_Open(void *handle, const char *file);
void MediaInfoA_Close(void *handle);
const char *MediaInfoA_Option(void *handle, const char *option, const char *value);
const char *MediaInfoA_Inform(void *handle, size_t reserved);
const char *MediaInfoA_Get(void *handle, LLMediaInfoStream streamKind, size_t streamNumber,
                           const char *parameter, LLMediaInfoInfo infoKind, LLMediaInfoInfo searchKind);
size_t MediaInfoA_Count_Get(void *handle, LLMediaInfoStream streamKind, size_t streamNumber);

#endif
