// Where session control sockets live: one folder per user, which only that
// user may enter ($XDG_RUNTIME_DIR/prof, else /tmp/prof-UID).
#pragma once

#include <filesystem>

namespace prof::control {

/// The folder for this user's sessions (not created).
std::filesystem::path control_folder();

/// Creates `folder` (mode 0700) if missing and checks that it is a real
/// directory owned by this user that nobody else can enter; throws
/// std::runtime_error naming the folder and what is wrong otherwise, so a
/// folder someone else prepared is never trusted.
void ensure_private_folder(const std::filesystem::path &folder);

} // namespace prof::control
