"""Tests of the grading runner (Django-free: sandbox, harness, timing, problem packages)."""
