"""MiniApps that exist only for the tests: plugged in by a fixture, never bundled or published."""
