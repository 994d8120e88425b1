"""Reading sessions: statistics of returns (stats), a session's reports and the figure helpers every plot
uses (reporting), the fault table (fault_report), sessions compared (comparison) and a study planned as arms
of K sessions each (study)."""
