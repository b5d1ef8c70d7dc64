// Where session control sockets live: one folder per user, which only that
// user may enter ($XDG_RUNTIME_DIR/prof, else /tmp/prof-UID).
#pragma once

#include <filesystem>
#include <string>

namespace prof::control {

/// The folder for this user's sessions (not created).
std::filesystem::path control_folder();
/// The folder a process of this user whose XDG_RUNTIME_DIR is `runtime`
/// ("" when unset) uses, as that process names it; `root` is where its
/// files are seen from here ("/", or /proc/PID/root for a container).
std::filesystem::path control_folder_of(const std::string &runtime,
                                        const std::filesystem::path &root);

/// Creates `folder` (mode 0700) if missing and checks that it is a real
/// directory owned by this user that nobody else can enter; throws
/// std::runtime_error naming the folder and what is wrong otherwise, so a
/// folder someone else prepared is never trusted.
void ensure_private_folder(const std::filesystem::path &folder);

} // namespace prof::control
