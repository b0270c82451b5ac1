"""`hiring-assistant bench`: the match-analysis workload on real engines, configurations compared
in one run (speculation off vs n-gram settings), with a lossless check against `off`."""
