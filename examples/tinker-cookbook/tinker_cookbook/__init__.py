"""A standard-library miniature of Thinking Machines' tinker-cookbook (see ../README.md)."""
