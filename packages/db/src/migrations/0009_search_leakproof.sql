-- Search under row-level security (decision 0041). A query's own conditions on a table with row-level security
-- may use an index only when their functions are LEAKPROOF; LIKE (textlike) and the trigram word-similarity
-- operators are not marked so, which turned every search into a sequential scan of search_documents. They raise
-- no error that depends on a row's value (LIKE's only error is about its pattern, a query constant here), so they
-- are marked LEAKPROOF. Only a superuser may do this: a migration run by a non-superuser owner leaves them as they
-- are (searches stay correct, but scan) and says so.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION textlike(text, text) LEAKPROOF;
    ALTER FUNCTION word_similarity_op(text, text) LEAKPROOF;
    ALTER FUNCTION word_similarity_commutator_op(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'search: run migration 0009 as a superuser so searches can use their indexes under row-level security';
  END IF;
END
$$;
