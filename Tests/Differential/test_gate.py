"""Unit tests of the differential run's closing line (Scripts/differential/main.py, gate_verdict): a gate that passes
never reads as a failure, and findings of classes outside the gate are counted as printed, not gated.
Run: python3 -m unittest discover -s Tests/Differential -p 'test_*.py'"""

import collections
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts", "differential"))
import main  # noqa: E402

GATE = "unexplained-accept,backend-disagreement,crash,ablation-unexplained"


class GateVerdictTests(unittest.TestCase):
    def test_passing_gate_with_ungated_findings(self):
        verdict = main.gate_verdict(collections.Counter({"disagreement-both-reject": 3, "agree-accept": 10}), GATE)
        self.assertTrue(verdict.startswith("gate passed (unexplained-accept, "), verdict)
        self.assertIn("3 finding(s) of ungated classes (disagreement-both-reject 3), printed, not gated", verdict)
        self.assertNotIn("UNEXPLAINED", verdict)
        self.assertNotIn("FAILED", verdict)

    def test_passing_gate_without_findings(self):
        verdict = main.gate_verdict(collections.Counter({"agree-reject": 5}), GATE)
        self.assertEqual(verdict, "gate passed (%s)" % GATE.replace(",", ", "))

    def test_failing_gate(self):
        verdict = main.gate_verdict(collections.Counter({"crash": 1, "disagreement-both-reject": 2}), GATE)
        self.assertTrue(verdict.startswith("GATE FAILED: 1 finding(s) of the gated classes (crash 1)"), verdict)
        self.assertIn("2 finding(s) of ungated classes", verdict)


if __name__ == "__main__":
    unittest.main()
