-- Custom-field filters under row-level security (decisions 0041, 0112). A condition may be read from an index before
-- the policy only when its functions are LEAKPROOF: the comparisons of numeric (number and currency values) and the
-- array overlap and containment of multi-choice values were not, so as the application role a number range or a
-- multi-choice filter read every value of its field and tested each after the policy (a number range matching 10,000
-- of 200,000 contacts: its count 130-270 ms as the application role, 2 ms as the owner). Numeric comparisons raise no
-- error that depends on a value; the array functions compare elements with their type's equality and raise only for
-- a type without one (a property of the type, not of a row). As in 0085, only a superuser may mark them; run by
-- another owner the migration leaves them as they are (filters stay correct but scan) and says so.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION numeric_eq(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_ne(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_lt(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_le(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_gt(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_ge(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION arrayoverlap(anyarray, anyarray) LEAKPROOF;
    ALTER FUNCTION arraycontains(anyarray, anyarray) LEAKPROOF;
  ELSE
    RAISE NOTICE 'custom fields: run migration 0097 as a superuser so number and multi-choice filters can use their indexes under row-level security';
  END IF;
END
$$;
