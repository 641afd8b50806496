// Package browsertest opens agentcheck's HTML report in headless Chromium
// through the Chrome DevTools Protocol and checks it as a reader's browser
// runs it: no console error, no network request, filters that show exactly
// the cases they name, and no script from a transcript ever running. It is a
// module of its own so that the core module keeps no CDP dependency; it holds
// tests only.
package browsertest
