ALTER TABLE "contact_entries" ALTER COLUMN "entry_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "contact_entries" ALTER COLUMN "entry_id" SET DEFAULT gh_next_id('contact_entries');--> statement-breakpoint
ALTER TABLE "contact_links" ALTER COLUMN "link_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "contact_links" ALTER COLUMN "link_id" SET DEFAULT gh_next_id('contact_links');--> statement-breakpoint
ALTER TABLE "contacts" ALTER COLUMN "contact_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "contacts" ALTER COLUMN "contact_id" SET DEFAULT gh_next_id('contacts');--> statement-breakpoint
ALTER TABLE "files" ALTER COLUMN "file_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "files" ALTER COLUMN "file_id" SET DEFAULT gh_next_id('files');--> statement-breakpoint
ALTER TABLE "images" ALTER COLUMN "image_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "images" ALTER COLUMN "image_id" SET DEFAULT gh_next_id('images');--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "id" SET DEFAULT gh_next_id('payments');--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "id" SET DEFAULT gh_next_id('refunds');--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "id" SET DEFAULT gh_next_id('audit_log');--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "id" SET DEFAULT gh_next_id('mail_outbox');--> statement-breakpoint
ALTER TABLE "terms_of_use" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "terms_of_use" ALTER COLUMN "id" SET DEFAULT gh_next_id('terms_of_use');--> statement-breakpoint
ALTER TABLE "samples" ALTER COLUMN "sample_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "samples" ALTER COLUMN "sample_id" SET DEFAULT gh_next_id('samples');
