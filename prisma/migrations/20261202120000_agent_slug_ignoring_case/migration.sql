-- Agent slugs are unique ignoring case (docs/agent-folders.md, "Slugs"): `Weather` and `weather`
-- name one agent. Prisma's schema cannot declare an index on an expression, so it lives here only.
--
-- An instance that already has slugs differing only in case keeps the oldest agent of each such
-- group under its slug, and the others become `<slug>-<first 8 hex digits of their id>`: first
-- the tokens of their team that name them, then the agents (so both statements see the same
-- groups). Prisma splits a migration at every semicolon, so each statement has none inside.
UPDATE "ApiToken" t SET "agentSlugs" = ARRAY(
  SELECT coalesce(r.new_slug, u.slug)
  FROM unnest(t."agentSlugs") WITH ORDINALITY AS u(slug, n)
  LEFT JOIN (
    SELECT "teamId", slug AS old_slug, left(slug, 55) || '-' || left(replace(id, '-', ''), 8) AS new_slug
    FROM (SELECT id, "teamId", slug, row_number() OVER (PARTITION BY lower(slug) ORDER BY "createdAt", id) AS rank FROM "Agent") ranked
    WHERE rank > 1
  ) r ON r.old_slug = u.slug AND r."teamId" = t."teamId"
  ORDER BY u.n
)
WHERE EXISTS (
  SELECT 1 FROM "Agent" a WHERE a."teamId" = t."teamId" AND a.slug = ANY (t."agentSlugs")
    AND EXISTS (SELECT 1 FROM "Agent" b WHERE lower(b.slug) = lower(a.slug) AND (b."createdAt", b.id) < (a."createdAt", a.id))
);

UPDATE "Agent" a SET slug = left(a.slug, 55) || '-' || left(replace(a.id, '-', ''), 8)
WHERE EXISTS (SELECT 1 FROM "Agent" b WHERE lower(b.slug) = lower(a.slug) AND (b."createdAt", b.id) < (a."createdAt", a.id));

CREATE UNIQUE INDEX "Agent_slug_lower_key" ON "Agent" (lower(slug));
