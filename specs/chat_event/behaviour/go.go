package chatevent

// InteractionAccumulator turns the ChatEvents a client receives into finished
// messages.
//
// The format's notes ask clients to handle any combination of fields, role
// changes mid-interaction and tools sending events directly. Feed every event
// in arrival order: content chunks are buffered per role until the
// interaction completes (or, for the role announcing tool calls, until it
// does: its text so far and the calls become one message); start,
// completion_running and tool_use_active are tracked, with the tool calls
// that are active; render_media is collected. Feed returns the messages the
// event finished. The event stream never carries tool results, so Messages
// holds what was streamed; the agent's own list, when the completing event
// has one, is FinalMessages.
type InteractionAccumulator struct {
	// SessionID is the last event's session.
	SessionID string
	// InteractionActive is true between a start event and a completed event.
	InteractionActive bool
	// InteractionRole is the role of the last start event.
	InteractionRole string
	// CompletionRunning is the last completion_running value (nil: never sent).
	CompletionRunning *bool
	// ToolUseActive is the last tool_use_active value (nil: never sent).
	ToolUseActive *bool
	// ActiveToolCalls are the tool calls running now.
	ActiveToolCalls []ToolCall
	// Media collects every render_media, in arrival order.
	Media []RenderMedia
	// Messages holds every finished message, in order.
	Messages []Message
	// FinalMessages is the messages list of the last completing event (nil: none).
	FinalMessages []Message
	// pendingRoles lists the roles with buffered text, in the order they first streamed.
	pendingRoles []string
	// pending maps a role to its buffered text.
	pending map[string]string
}

// AccumulatorStatus is the tracked state as the JSON the Python
// InteractionAccumulator.status() returns.
type AccumulatorStatus struct {
	// SessionID is the last event's session (null: no event yet).
	SessionID *string `json:"session_id"`
	// InteractionActive is true between a start event and a completed event.
	InteractionActive bool `json:"interaction_active"`
	// InteractionRole is the role of the last start event (null: none).
	InteractionRole *string `json:"interaction_role"`
	// CompletionRunning is the last completion_running value.
	CompletionRunning *bool `json:"completion_running"`
	// ToolUseActive is the last tool_use_active value.
	ToolUseActive *bool `json:"tool_use_active"`
	// ActiveToolCalls are the tool calls running now.
	ActiveToolCalls []ToolCall `json:"active_tool_calls"`
	// Pending is the text buffered per role.
	Pending map[string]string `json:"pending"`
	// Media collects every render_media, in arrival order.
	Media []RenderMedia `json:"media"`
}

// Feed applies one event (validated first: a *ValidationError leaves the
// accumulator as it was) and returns the messages it finished.
func (a *InteractionAccumulator) Feed(event ChatEvent) ([]Message, error) {
	if err := event.Validate(); err != nil {
		return nil, err
	}
	finished := []Message{}
	a.SessionID = event.SessionID
	if event.Start != nil && *event.Start {
		// An interaction that never completed ends here.
		finished = append(finished, a.flush()...)
		a.InteractionActive = true
		a.InteractionRole = event.Role
		a.FinalMessages = nil
	}
	if event.CompletionRunning != nil {
		running := *event.CompletionRunning
		a.CompletionRunning = &running
	}
	if event.Content != nil && *event.Content != "" {
		if a.pending == nil {
			a.pending = map[string]string{}
		}
		if _, ok := a.pending[event.Role]; !ok {
			a.pendingRoles = append(a.pendingRoles, event.Role)
		}
		a.pending[event.Role] += *event.Content
	}
	if event.RenderMedia != nil {
		a.Media = append(a.Media, *event.RenderMedia)
	}
	if event.ToolUseActive != nil {
		active := *event.ToolUseActive
		a.ToolUseActive = &active
		a.ActiveToolCalls = []ToolCall{}
		if active {
			a.ActiveToolCalls = append(a.ActiveToolCalls, event.ToolCalls...)
		}
		if active && len(event.ToolCalls) > 0 {
			calls := append([]ToolCall{}, event.ToolCalls...)
			finished = append(finished, Message{Role: event.Role, Content: a.take(event.Role), ToolCalls: calls})
		}
	}
	if event.Completed != nil && *event.Completed {
		finished = append(finished, a.flush()...)
		a.InteractionActive = false
		if event.Messages != nil {
			a.FinalMessages = append([]Message{}, event.Messages...)
		}
	}
	a.Messages = append(a.Messages, finished...)
	return finished, nil
}

// Pending returns the text buffered per role and not yet part of a finished
// message.
func (a *InteractionAccumulator) Pending() map[string]string {
	out := make(map[string]string, len(a.pending))
	for role, text := range a.pending {
		out[role] = text
	}
	return out
}

// Status returns the tracked state.
func (a *InteractionAccumulator) Status() AccumulatorStatus {
	status := AccumulatorStatus{
		InteractionActive: a.InteractionActive,
		CompletionRunning: a.CompletionRunning,
		ToolUseActive:     a.ToolUseActive,
		ActiveToolCalls:   append([]ToolCall{}, a.ActiveToolCalls...),
		Pending:           a.Pending(),
		Media:             append([]RenderMedia{}, a.Media...),
	}
	if a.SessionID != "" {
		session := a.SessionID
		status.SessionID = &session
	}
	if a.InteractionRole != "" {
		role := a.InteractionRole
		status.InteractionRole = &role
	}
	return status
}

// take removes a role's buffered text; nil when it has none.
func (a *InteractionAccumulator) take(role string) *string {
	text, ok := a.pending[role]
	if !ok {
		return nil
	}
	delete(a.pending, role)
	for i, r := range a.pendingRoles {
		if r == role {
			a.pendingRoles = append(a.pendingRoles[:i], a.pendingRoles[i+1:]...)
			break
		}
	}
	return &text
}

// flush turns every role's buffered text into a message, in the order the
// roles first streamed.
func (a *InteractionAccumulator) flush() []Message {
	out := []Message{}
	for _, role := range append([]string{}, a.pendingRoles...) {
		out = append(out, Message{Role: role, Content: a.take(role)})
	}
	return out
}
