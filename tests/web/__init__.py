"""Browser tests of the web interface (headless Debian Chromium through Playwright)."""
