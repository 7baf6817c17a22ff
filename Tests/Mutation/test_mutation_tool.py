"""Unit tests of mutation_tool.py's reading of `swift test` runs and of its choice of test targets
(python3 -m unittest discover -s Tests/Mutation; run by Scripts/test.sh). The samples under samples/ are real
`swift test` outputs (Swift 6.3, Linux) of a small package: each with the exit status swift test gave."""
import os
import unittest

import mutation_tool as tool

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "samples")


def sample(name):
    with open(os.path.join(SAMPLES, name), errors="replace") as f:
        return f.read()


class ReadRunTests(unittest.TestCase):
    def test_passing_run_passes(self):
        run = tool.read_run(sample("passing.log"), 0)
        self.assertTrue(run.passed, run.failures)
        self.assertEqual(run.tests, 2)  # one Swift Testing test, one XCTest

    def test_unnamed_test_failure_is_read_from_the_output_alone(self):
        # `@Test func times()` has no display name: "✘ Test times() recorded an issue" (the old tool missed it).
        run = tool.read_run(sample("unnamed-test-failure.log"), 0)
        self.assertFalse(run.passed)
        self.assertTrue(run.named)
        self.assertIn("times()", run.failures)
        self.assertNotIn("fine()", run.failures)

    def test_named_test_failure(self):
        run = tool.read_run(sample("named-test-failure.log"), 1)
        self.assertIn("a named test", run.failures)
        self.assertTrue(run.named)

    def test_parameterized_failure_names_the_argument(self):
        run = tool.read_run(sample("parameterized-failure.log"), 1)
        self.assertIn("param(_:) [x → 2]", run.failures)

    def test_xctest_failure(self):
        run = tool.read_run(sample("xctest-failure.log"), 1)
        self.assertFalse(run.passed)
        self.assertIn("Legacy.testFails", run.failures)
        self.assertNotIn("Legacy.testPasses", run.failures)

    def test_xctest_failure_counted_even_without_the_case_lines(self):
        text = "\n".join(line for line in sample("xctest-failure.log").splitlines()
                         if "Legacy.testFails" not in line)
        run = tool.read_run(text, 0)
        self.assertFalse(run.passed)
        self.assertIn("(XCTest counted failures)", run.failures)

    def test_crash_is_a_failure_even_with_exit_status_zero(self):
        run = tool.read_run(sample("crash.log"), 0)
        self.assertFalse(run.passed)
        self.assertFalse(run.named)  # no test named it: the tool repeats the run once before calling it a kill
        self.assertTrue(any("crash" in f for f in run.failures), run.failures)

    def test_crash_with_its_exit_status(self):
        run = tool.read_run(sample("crash.log"), 1)
        self.assertIn("(swift test exited with status 1)", run.failures)

    def test_compile_error_is_a_failure(self):
        run = tool.read_run(sample("compile-error.log"), 1)
        self.assertFalse(run.passed)
        self.assertTrue(any("does not build" in f for f in run.failures), run.failures)

    def test_exit_status_alone_is_a_failure(self):
        run = tool.read_run(sample("passing.log"), 1)
        self.assertFalse(run.passed)
        self.assertEqual(run.failures, ["(swift test exited with status 1)"])

    def test_a_run_cut_short_is_a_failure(self):
        text = "\n".join(sample("passing.log").splitlines()[:-1])
        text = "\n".join(line for line in text.splitlines() if "Executed" not in line)
        run = tool.read_run(text, 0)
        self.assertEqual(run.failures, ["(the test run never reached its summary)"])

    def test_time_out_is_a_failure(self):
        self.assertIn("(timed out)", tool.read_run(sample("passing.log"), -9, timed_out=True).failures)

    def test_a_filter_that_matches_nothing_is_no_pass(self):
        run = tool.read_run(sample("no-tests.log"), 0)
        self.assertTrue(run.no_tests)


PACKAGE = {
    "targets": [
        {"name": "Core", "type": "regular", "path": None, "dependencies": []},
        {"name": "Backend", "type": "regular", "path": None, "dependencies": [{"byName": ["Core", None]}]},
        {"name": "CLI", "type": "regular", "path": None,
         "dependencies": [{"target": ["Backend", None]}, {"product": ["ArgumentParser", "x", None, None]}]},
        {"name": "tool", "type": "executable", "path": None, "dependencies": [{"byName": ["CLI", None]}]},
        {"name": "Support", "type": "regular", "path": "Tests/Support", "dependencies": [{"byName": ["Core", None]}]},
        {"name": "CoreTests", "type": "test", "path": None,
         "dependencies": [{"byName": ["Core", None]}, {"byName": ["Support", None]}]},
        {"name": "BackendTests", "type": "test", "path": None, "dependencies": [{"byName": ["Backend", None]}]},
        {"name": "CLITests", "type": "test", "path": None, "dependencies": [{"byName": ["CLI", None]}]},
    ]
}


class ObservingTestsTests(unittest.TestCase):
    def test_core_file_is_observed_through_dependencies(self):
        self.assertEqual(tool.observing_tests(PACKAGE, "Sources/Core/Rules/A.swift"),
                         ["BackendTests", "CLITests", "CoreTests"])

    def test_backend_file(self):
        self.assertEqual(tool.observing_tests(PACKAGE, "Sources/Backend/B.swift"), ["BackendTests", "CLITests"])

    def test_cli_file(self):
        self.assertEqual(tool.observing_tests(PACKAGE, "Sources/CLI/C.swift"), ["CLITests"])

    def test_test_support_with_explicit_path(self):
        self.assertEqual(tool.observing_tests(PACKAGE, "Tests/Support/S.swift"), ["CoreTests"])

    def test_a_test_file_is_observed_by_its_own_target(self):
        self.assertEqual(tool.observing_tests(PACKAGE, "Tests/CLITests/T.swift"), ["CLITests"])

    def test_executables_and_unknown_files_are_observed_by_every_test_target(self):
        every = ["BackendTests", "CLITests", "CoreTests"]
        self.assertEqual(tool.observing_tests(PACKAGE, "Sources/tool/main.swift"), every)
        self.assertEqual(tool.observing_tests(PACKAGE, "Scripts/x.sh"), every)

    def test_prefix_is_a_directory_not_a_name_prefix(self):
        # Sources/CoreX is not Sources/Core.
        self.assertEqual(tool.observing_tests(PACKAGE, "Sources/CoreX/A.swift"),
                         ["BackendTests", "CLITests", "CoreTests"])

    def test_target_filter_selects_one_whole_target(self):
        self.assertEqual(tool.target_filter("CLITests"), "^CLITests\\.")


if __name__ == "__main__":
    unittest.main()


class SummaryTests(unittest.TestCase):
    """The report: counts, the rate, each non-killed mutant with its test runs, the ones not run, the exit status."""

    def write(self, directory, name, text):
        path = os.path.join(directory, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def summarize(self, rows):
        import contextlib
        import io
        import json
        import tempfile
        with tempfile.TemporaryDirectory() as directory:
            mutants = [{"id": i, "file": "Sources/Core/A.swift", "original": "a", "replacement": "b", "rule": "r"}
                       for i in ("m1", "m2", "m3", "m4")]
            mutants[2]["equivalent"] = "cannot change a verdict"
            listing = self.write(directory, "mutants.json", json.dumps(mutants))
            results = self.write(directory, "results.tsv", "".join("\t".join(row) + "\n" for row in rows))
            out = io.StringIO()
            with contextlib.redirect_stdout(out), self.assertRaises(SystemExit) as exit:
                tool.summary(listing, results)
            return out.getvalue(), exit.exception.code

    def test_rate_runs_and_not_run(self):
        text, status = self.summarize([
            ("m1", "KILLED", "observable: CoreTests", "by CoreTests: 1 failure(s): times()"),
            ("m2", "SURVIVED", "hint 'X' first, then observable: CoreTests,CLITests", ""),
            ("m3", "EQUIVALENT", "observable: CoreTests", ""),
        ])
        self.assertIn("3 mutant(s) run: 1 killed, 1 survived", text)
        self.assertIn("kill rate 1/3 = 33.3% of all; 1/2 = 50.0% of the non-equivalent", text)
        self.assertIn("SURVIVED   m2 [r] Sources/Core/A.swift [hint 'X' first, then observable: CoreTests,CLITests]", text)
        self.assertIn("not run: m4", text)
        self.assertEqual(status, 1)

    def test_flaky_is_not_a_kill(self):
        text, status = self.summarize([
            ("m1", "KILLED", "observable: CoreTests", ""), ("m2", "FLAKY", "observable: CoreTests", "crash"),
            ("m3", "EQUIVALENT", "observable: CoreTests", ""), ("m4", "KILLED", "observable: CoreTests", ""),
        ])
        self.assertIn("2 killed, 0 survived, 1 flaky", text)
        self.assertIn("kill rate 2/4", text)
        self.assertEqual(status, 1)

    def test_all_killed_passes(self):
        text, status = self.summarize([("m1", "KILLED", "narrowed by --filter 'X'", ""),
                                       ("m2", "KILLED", "observable: CoreTests", ""),
                                       ("m3", "EQUIVALENT", "observable: CoreTests", ""),
                                       ("m4", "STILLBORN", "observable: CoreTests", "does not compile")])
        self.assertIn("1 verdict(s) taken under a --filter narrowing", text)
        self.assertEqual(status, 0)
