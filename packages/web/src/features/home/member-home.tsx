import { Button, Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconAddressBook, IconFileInvoice, IconIdBadge2, IconKey, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useIdentity } from '../../platform/identity.ts';
import { PageHeader } from '../../platform/page.tsx';

/** `/m`: where members land after signing in. */
export function MemberHome() {
  const me = useIdentity();
  const first = (me.user.displayName || me.user.username).split(' ')[0];
  return (
    <>
      <PageHeader
        title={`Welcome, ${first}`}
        description={`This is your member area at ${me.tenant.name}.`}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder component="section" aria-labelledby="home-profile">
          <Group gap="sm" mb="xs">
            <ThemeIcon variant="light" aria-hidden>
              <IconUser size={18} />
            </ThemeIcon>
            <Text fw={700} component="h2" id="home-profile">
              Your profile
            </Text>
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            The details your association holds about your account.
          </Text>
          <Button component={Link} to="/m/profile" variant="light" w="fit-content">
            View your profile
          </Button>
        </Card>
        <Card withBorder component="section" aria-labelledby="home-membership">
          <Group gap="sm" mb="xs">
            <ThemeIcon variant="light" aria-hidden>
              <IconIdBadge2 size={18} />
            </ThemeIcon>
            <Text fw={700} component="h2" id="home-membership">
              Your membership
            </Text>
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            Your membership's status, term and dues, and autopay.
          </Text>
          <Button component={Link} to="/m/membership" variant="light" w="fit-content">
            View your membership
          </Button>
        </Card>
        <Card withBorder component="section" aria-labelledby="home-invoices">
          <Group gap="sm" mb="xs">
            <ThemeIcon variant="light" aria-hidden>
              <IconFileInvoice size={18} />
            </ThemeIcon>
            <Text fw={700} component="h2" id="home-invoices">
              Your invoices
            </Text>
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            What you owe, your invoices as PDF, your payments and credits; pay an invoice by card.
          </Text>
          <Button component={Link} to="/m/invoices" variant="light" w="fit-content">
            View your invoices
          </Button>
        </Card>
        <Card withBorder component="section" aria-labelledby="home-directory">
          <Group gap="sm" mb="xs">
            <ThemeIcon variant="light" aria-hidden>
              <IconAddressBook size={18} />
            </ThemeIcon>
            <Text fw={700} component="h2" id="home-directory">
              Member directory
            </Text>
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            Find the members and organisations listed by your association.
          </Text>
          <Button component={Link} to="/m/directory" variant="light" w="fit-content">
            Open the directory
          </Button>
        </Card>
        <Card withBorder component="section" aria-labelledby="home-security">
          <Group gap="sm" mb="xs">
            <ThemeIcon variant="light" aria-hidden>
              <IconKey size={18} />
            </ThemeIcon>
            <Text fw={700} component="h2" id="home-security">
              Sign-in and security
            </Text>
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            Change the password you use to sign in.
          </Text>
          <Button component={Link} to="/m/account/password" variant="light" w="fit-content">
            Change password
          </Button>
        </Card>
      </SimpleGrid>
    </>
  );
}
