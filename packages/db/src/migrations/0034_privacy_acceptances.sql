CREATE TABLE "privacy_acceptances" (
	"tenant_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"policy_version" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_acceptances_tenant_id_user_id_policy_version_pk" PRIMARY KEY("tenant_id","user_id","policy_version")
);
