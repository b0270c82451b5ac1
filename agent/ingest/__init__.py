"""Reading what recruiters give: files, JSON Resume, the text a human reader sees."""
