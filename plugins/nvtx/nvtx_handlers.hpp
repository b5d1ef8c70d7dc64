// NVTX's side of the plugin: the functions NVTX calls once an injection has
// filled its function tables, routed to the active recorder (none: they do
// nothing, so an application annotated before or after a capture runs on).
#ifndef PROF_PLUGINS_NVTX_NVTX_HANDLERS_HPP
#define PROF_PLUGINS_NVTX_NVTX_HANDLERS_HPP

#include <prof/annotations/annotation_recorder.hpp>

#include <nvtx3/nvToolsExt.h>

namespace prof::nvtx {

using annotations::AnnotationRecorder;
using annotations::Attributes;
using annotations::Domain;
using annotations::Text;

/// The recorder annotations go to; nullptr stops recording. A replaced
/// recorder must stay allocated: a thread may still be inside it.
void set_active_recorder(AnnotationRecorder *recorder);

/// Fills NVTX's core function tables with the handlers; 1 on success, as
/// NVTX's InitializeInjectionNvtx2 answers.
int install_handlers(NvtxGetExportTableFunc_t get_export_table);

} // namespace prof::nvtx

#endif
