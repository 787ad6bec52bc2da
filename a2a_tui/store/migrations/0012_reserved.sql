-- Migration 12: a placeholder that keeps the numbers dense on the runners branch (issue 24);
-- other branches of this wave take 8 to 12, and the merge renumbers 13 to follow them.
SELECT 1;
