// Package sourcecheck holds the checks of the module's source as a whole
// that no one package owns: TestFunctionsAreShort fails when the body of a
// function or method of the module's non-test code (the lines between its
// braces) is longer than MaxBodyLines; TestCitationsCanBeFollowed when a
// comment, document or scenario cites a note that is not in the
// repository instead of the public source; TestSplitListsNameTests when
// scripts/test.sh's lists of long and race-free tests name a test the
// module does not have, or its passes no longer select each test once.
// It has no code of its own.
package sourcecheck

// MaxBodyLines is the most lines a function's body may take, its braces
// not counted.
const MaxBodyLines = 60
