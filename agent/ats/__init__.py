"""A report in the shapes of applicant tracking systems (Greenhouse, Lever, Ashby)."""
