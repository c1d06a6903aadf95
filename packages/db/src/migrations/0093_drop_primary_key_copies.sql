DROP INDEX "credits_by_key";--> statement-breakpoint
DROP INDEX "invoices_by_key";--> statement-breakpoint
DROP INDEX "membership_fee_items_by_key";--> statement-breakpoint
DROP INDEX "membership_history_by_key";