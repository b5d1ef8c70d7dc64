// Sends one control request to a session and waits for its response.
#pragma once

#include "core/control/control_message.hpp"

#include <chrono>
#include <filesystem>
#include <string>

namespace prof::control {

/// The session's response text ("ok ..." / "error ..."); `request.fd`, when
/// set, is passed along (the caller keeps its own). Throws
/// std::runtime_error naming the socket when there is no session there, it
/// closed the connection (another user's session refuses), or it did not
/// answer within `timeout`.
std::string send_request(const std::filesystem::path &socket_path, const Request &request,
                         std::chrono::milliseconds timeout = std::chrono::seconds(5));

} // namespace prof::control
