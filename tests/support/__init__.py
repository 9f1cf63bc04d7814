"""Helpers shared by the project's tests (the suites every game passes live in
``plunder.envs.core.testing``, for third-party games too)."""
