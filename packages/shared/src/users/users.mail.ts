/**
 * The system messages of users and sign-in (decision 0154): their default wording and values; staff reword them in
 * Communications → System messages.
 */
import { defineSystemTemplate } from '../platform/system-templates.ts';

export const passwordResetMail = defineSystemTemplate({
  Key: 'auth.passwordReset',
  Title: 'Password reset',
  Description: 'The link to choose a new password, sent when a user or staff asks for it (valid one hour).',
  Group: 'Account',
  Subject: 'Choose a new password',
  BodyHtml:
    '<p>Hello {{User.DisplayName}},</p><p>Someone asked to reset the password of the account {{User.Username}}. To choose a new password, open this link within one hour:</p><p><a href="{{Reset.Link}}">Choose a new password</a></p><p>If you did not ask for this, you can ignore this message.</p><p>{{Association.Name}}</p>',
  Fields: [
    { Name: 'User.DisplayName', Description: 'Name of the user', Sample: 'Ada Lovelace' },
    { Name: 'User.Username', Description: 'Sign-in name of the user', Sample: 'ada.lovelace' },
    {
      Name: 'Reset.Link',
      Description: 'Address where the user chooses a new password',
      Sample: 'https://example.org/reset-password?token=sample',
      Link: true,
    },
  ],
});

export const staffInvitationMail = defineSystemTemplate({
  Key: 'users.staffInvitation',
  Title: 'Staff invitation',
  Description: 'The invitation to work in the back office, with its one-time link.',
  Group: 'Staff',
  Subject: 'You are invited to {{Association.Name}}',
  BodyHtml:
    '<p>Hello {{Invitation.DisplayName}},</p><p>{{Invitation.InviterName}} invites you to work in {{Association.Name}}\'s back office on Guildhall as {{Invitation.Role}}.</p><p>To accept, open this link within {{Invitation.Days}} days (it works once):</p><p><a href="{{Invitation.Link}}">Accept the invitation</a></p><p>If you did not expect this invitation, you can ignore this message.</p>',
  Fields: [
    { Name: 'Invitation.DisplayName', Description: 'Name of the person invited', Sample: 'Grace Hopper' },
    { Name: 'Invitation.InviterName', Description: 'Who invites', Sample: 'Ada Lovelace' },
    { Name: 'Invitation.Role', Description: 'The role offered (staff, administrator)', Sample: 'staff' },
    { Name: 'Invitation.Days', Description: 'Days the link stays valid', Sample: '7' },
    {
      Name: 'Invitation.Link',
      Description: 'Address where the invitation is accepted',
      Sample: 'https://example.org/invitation?token=sample',
      Link: true,
    },
  ],
});
