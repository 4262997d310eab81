-- The application connects as (or switches to) actiondesk_app: not a superuser, not the owner of any
-- table, so the row-level security policies below always apply to it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'actiondesk_app') THEN
    CREATE ROLE actiondesk_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'actiondesk_app', 'MEMBER') THEN
    EXECUTE format('GRANT actiondesk_app TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
