"""Other libraries' game interfaces: the learning environments (env/) and OpenSpiel."""
