#include "core/capture/session.hpp"

#include <gtest/gtest.h>

using prof::core::Session;
using prof::core::SessionState;

TEST(Session, FollowsTheLifecycle) {
  Session session("run-1");
  EXPECT_EQ(session.state(), SessionState::Created);
  EXPECT_TRUE(session.start());
  EXPECT_TRUE(session.suspend());
  EXPECT_EQ(session.state(), SessionState::Suspended);
  EXPECT_TRUE(session.resume());
  EXPECT_TRUE(session.stop());
  EXPECT_EQ(session.state(), SessionState::Stopped);
}

TEST(Session, RefusesTransitionsThatMakeNoSense) {
  Session session("s");
  EXPECT_FALSE(session.suspend());
  EXPECT_EQ(session.error(), "cannot suspend session 's': it is created");
  EXPECT_FALSE(session.resume());
  EXPECT_FALSE(session.stop());
  ASSERT_TRUE(session.start());
  EXPECT_FALSE(session.start());
  EXPECT_EQ(session.error(), "cannot start session 's': it is running");
  EXPECT_FALSE(session.resume());
  ASSERT_TRUE(session.cancel());
  EXPECT_EQ(session.state(), SessionState::Cancelled);
  EXPECT_FALSE(session.stop());
  EXPECT_EQ(session.error(), "cannot stop session 's': it is cancelled");
  EXPECT_FALSE(session.cancel());
}

TEST(Session, NamesAreLettersDigitsDashAndUnderscore) {
  EXPECT_TRUE(prof::core::valid_session_name("train_run-2"));
  EXPECT_TRUE(prof::core::valid_session_name("12345"));
  EXPECT_FALSE(prof::core::valid_session_name(""));
  EXPECT_FALSE(prof::core::valid_session_name("a b"));
  EXPECT_FALSE(prof::core::valid_session_name("a/b"));
  EXPECT_FALSE(prof::core::valid_session_name("ünï"));
  EXPECT_FALSE(prof::core::valid_session_name(std::string(65, 'a')));
}
