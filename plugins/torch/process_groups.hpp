// PyTorch's process groups as the torch source sees them, and the matching
// of a c10d operator (c10d::allreduce_, on the calling thread, naming its
// group) with the backend's collective that carries it out (gloo:all_reduce,
// often on the backend's own thread, naming no group). Each operation gets
// the next `sequence` on its group when the c10d operator is called: members
// call a group's operations in the same order, so equal sequences on a
// group are one operation on every rank. Thread-safe; collectives are few,
// so one mutex serves.
#ifndef PROF_PLUGINS_TORCH_PROCESS_GROUPS_HPP
#define PROF_PLUGINS_TORCH_PROCESS_GROUPS_HPP

#include <prof/collective_names.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::torch {

/// A group whose own count of operations prof does not know.
inline constexpr uint64_t kSequenceUnknown = UINT64_MAX;

/// What reports say about a group.
struct GroupFacts {
  std::string communicator; ///< "gloo:default", "gloo:1": the same on every member
  std::string backend;
  int rank = -1, size = 0;
  std::string ranks; ///< its members' global ranks, "0-3" or "0,2,4"; "" unknown
};

/// One operation on a group, as its c10d operator issued it.
struct IssuedCollective {
  uint64_t group = 0; ///< the group's index in ProcessGroups (1, 2, ...)
  uint64_t sequence = 0;
  uint64_t flow = 0;      ///< the flow from the c10d operator to the backend's call, 0 none
  uint64_t issued_ns = 0; ///< when the c10d operator was called
  /// The operation the c10d operator asked for, where the backend carries
  /// it out as another ("reduce_scatter", which gloo runs as an all-reduce);
  /// empty when it is the backend call's own.
  std::string asked_for;
};

class ProcessGroups {
public:
  /// Names the group at `address` (again: newer facts win, the sequence stays).
  /// Without a name it gets "BACKEND:sizeN#K", K counting such groups.
  /// `sequence_base` is PyTorch's own count of the group's operations when
  /// it was made (prof_torch_group::sequence_base), kSequenceUnknown if not known.
  void name(const void *address, std::optional<std::string_view> name, std::string_view backend,
            int rank, int size, const std::vector<int64_t> &ranks,
            uint64_t sequence_base = kSequenceUnknown);
  bool knows(const void *address) const;

  /// A c10d operator `operation` ("all_reduce") called on the group at
  /// `address` with `tensor` (0: none) as its first input. nullopt for a
  /// group never named.
  /// Counted also while nothing records (`wait` false: no backend call will
  /// look for it), so that sequences match across ranks whenever they start.
  /// With PyTorch's own count (`group_sequence`, 0: unknown) and the
  /// group's base, the sequence is taken from them: it matches across ranks
  /// even where prof came in after the group's first operations (attach).
  std::optional<IssuedCollective> issue(const void *address, std::string_view operation,
                                        uint64_t tensor, uint64_t flow, uint64_t issued_ns = 0,
                                        bool wait = true, uint64_t group_sequence = 0);
  /// The backend's call of `operation` on `tensor`: the issued operation it
  /// carries out (the oldest of that operation on that tensor, else the
  /// oldest of that operation, else the oldest of an operation a backend
  /// carries out as `operation`), nullopt when none waits.
  std::optional<IssuedCollective> carry_out(std::string_view operation, uint64_t tensor);

  /// Forgets the issued operations no backend call took yet: a new recording
  /// begins, and the backend calls of those were not recorded (the last
  /// recording stopped first). Left waiting, each would be taken by the
  /// next call in its place, every call after it one operation off.
  void forget_waiting();

  /// The facts of group `index` (from IssuedCollective::group).
  GroupFacts facts(uint64_t index) const;

  /// Issued operations no backend call took are forgotten past this many.
  static constexpr size_t kMaxWaiting = 4096;

private:
  struct Group {
    GroupFacts facts;
    uint64_t issued = 0;
    uint64_t sequence_base = kSequenceUnknown;
  };
  struct Waiting {
    std::string operation;
    uint64_t tensor;
    IssuedCollective issued;
  };
  mutable std::mutex mutex_;
  std::map<const void *, uint64_t> index_of_;
  std::vector<Group> groups_;                          ///< index - 1
  std::map<std::pair<std::string, int>, int> unnamed_; ///< (backend, size) -> groups so named
  std::deque<Waiting> waiting_;
};

/// The process's groups, which outlive every recorder (never destroyed:
/// PyTorch may call in at exit).
ProcessGroups &process_groups();

} // namespace prof::torch

#endif
