-- The search box of every large list under row-level security (decisions 0041, 0102). Each list's trigram index is
-- on lower(a || ' ' || b …) of its search fields; a query's condition may be read from an index before the policy
-- only when every function in it is LEAKPROOF. textlike is (migration 0009); lower(text) and textcat (||) were not,
-- so as the application role every list search read the association's whole table (memberships at 100,000 rows:
-- 240 ms instead of 0.1 ms). Neither raises an error that depends on a row's value (lower folds case, textcat joins
-- two texts), so evaluating them before the policy reveals nothing. As in 0009, only a superuser may mark them; run
-- by another owner the migration leaves them as they are (searches stay correct but scan) and says so.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION lower(text) LEAKPROOF;
    ALTER FUNCTION textcat(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'lists: run migration 0085 as a superuser so list searches can use their indexes under row-level security';
  END IF;
END
$$;
