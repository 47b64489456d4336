"""Seeing the board: from a camera frame to the observation of shared/spec/vision.md."""
