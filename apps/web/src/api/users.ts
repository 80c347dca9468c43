import type { PasswordRules, SetPasswordRequest } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

export const usePasswordRules = () =>
  useQuery({
    queryKey: ['passwordRules'],
    queryFn: () => apiFetch<PasswordRules>('/api/passwordRules'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });

export const useSetPassword = (userId: number) =>
  useMutation({
    mutationFn: (request: SetPasswordRequest) =>
      apiFetch<{ message: string }>(`/api/users/${userId}/setPassword`, {
        method: 'POST',
        body: request,
        // The reset and registration modes run without a session.
        noRelogin: 'resetToken' in request,
      }),
  });

type MfaStatus = { enabled: boolean; pending: boolean; recoveryCodesLeft: number };
type MfaEnrolment = { secret: string; otpauthUri: string; qrCode: string };

const mfaKey = (userId: number) => ['users', userId, 'mfa'] as const;

export const useMfaStatus = (userId: number) =>
  useQuery({ queryKey: mfaKey(userId), queryFn: () => apiFetch<MfaStatus>(`/api/users/${userId}/mfa`) });

export const useMfaEnrol = (userId: number) =>
  useMutation({
    mutationFn: () => apiFetch<MfaEnrolment>(`/api/users/${userId}/mfa/enrol`, { method: 'POST', body: {} }),
  });

export const useMfaConfirm = (userId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<{ recoveryCodes: string[] }>(`/api/users/${userId}/mfa/confirm`, {
        method: 'POST',
        body: { code },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaKey(userId) }),
  });
};

export const useMfaDisable = (userId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<{ ok: true }>(`/api/users/${userId}/mfa/disable`, { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaKey(userId) }),
  });
};

export const useUpdatePasswordRules = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: PasswordRules) =>
      apiFetch<PasswordRules>('/api/passwordRules', { method: 'POST', body: rules }),
    onSuccess: (rules) => queryClient.setQueryData(['passwordRules'], rules),
  });
};
