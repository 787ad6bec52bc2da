-- Migration 8: empty on purpose. The wave that made 13 (test reports) reserved 8-12 for other
-- branches, and none needed a migration; stores on main have since reached 13, so the numbers
-- stay (renumbering would make such a store look newer than a2a and be refused).
SELECT 1;
