-- An invoice keeps the currency it was issued in (decision 0125): the association's Currency setting when it was
-- issued. Invoices already issued take the association's setting now (absent or not a code: USD, as currencyCode).
ALTER TABLE "invoices" ADD COLUMN "currency" text;--> statement-breakpoint
UPDATE "invoices" i SET "currency" = CASE WHEN upper(trim(t.settings->>'currency')) ~ '^[A-Z]{3}$'
    THEN upper(trim(t.settings->>'currency')) ELSE 'USD' END
  FROM "tenants" t WHERE t.id = i.tenant_id;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "currency" SET NOT NULL;
