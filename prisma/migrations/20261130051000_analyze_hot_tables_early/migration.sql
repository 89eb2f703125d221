-- The hot tables grow from nothing in a new instance. Until autovacuum first analyzes them,
-- Postgres plans (and caches, for prepared statements) as if they were tiny: full scans where an
-- index lookup is right. Analyze them early and as they grow, so cached plans are remade in time.
ALTER TABLE "session_events" SET (autovacuum_analyze_threshold = 500, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE "sessions" SET (autovacuum_analyze_threshold = 200, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE "turn_steps" SET (autovacuum_analyze_threshold = 200, autovacuum_analyze_scale_factor = 0.05);
