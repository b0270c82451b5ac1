"""The batch scoring job: candidates in, runs and items in the store, shortlists out."""
