"""Quality evaluation: ranking and graded-pair agreement on labelled data."""
