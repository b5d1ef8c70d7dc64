// NVTX's static injection: a strong definition of the pointer NVTX declares
// weak, so this test binary's NVTX calls initialize the plugin's handlers.
// Its own file: a file with NVTX's implementation holds the weak one.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

extern "C" int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table);

extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &InitializeInjectionNvtx2;
}
