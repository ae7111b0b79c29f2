package chatmodality

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatspec/chatformats/internal/rt"
)

// SummaryMaxChars is how many characters of text GetSummary shows; longer
// text is cut to 47 and ends in "...".
const SummaryMaxChars = 50

// DefaultConversationEntity is what GetAffectedEntities names when an input
// has no conversation ID.
const DefaultConversationEntity = "default_conversation"

// DefaultInputConversation is ChatInput's default conversation ID; ChatState
// files such inputs under its DefaultConversationID.
const DefaultInputConversation = ChatInputConversationIDDefault

// QueryParameters lists the keys ParseChatQuery understands, in the order it
// checks them.
var QueryParameters = []string{"conversation_id", "role", "since", "until", "limit", "search"}

// Summarize returns "User: 'text'" (long text shortened), or
// "User: [multimodal message with N parts]".
func Summarize(role Role, content Content) string {
	who := string(role)
	if r, n := utf8.DecodeRuneInString(who); n > 0 {
		who = strings.ToUpper(string(r)) + who[n:]
	}
	if content.String != nil {
		text := *content.String
		if utf8.RuneCountInString(text) > SummaryMaxChars {
			text = string([]rune(text)[:SummaryMaxChars-3]) + "..."
		}
		return who + ": '" + text + "'"
	}
	parts := "parts"
	if len(content.Array) == 1 {
		parts = "part"
	}
	return fmt.Sprintf("%s: [multimodal message with %d %s]", who, len(content.Array), parts)
}

// GetSummary returns a one-line summary for logs and UIs, e.g.
// "User: 'What's the weather?'" (see Summarize).
func (m ChatInput) GetSummary() string {
	return Summarize(m.Role, m.Content)
}

// GetAffectedEntities returns the conversation this input touches:
// [ConversationID], or ["default_conversation"] when it is unset.
func (m ChatInput) GetAffectedEntities() []string {
	if m.ConversationID == "" {
		return []string{DefaultConversationEntity}
	}
	return []string{m.ConversationID}
}

// ShouldMergeWith is always false: each chat message is distinct, never
// merged with another input.
func (m ChatInput) ShouldMergeWith(other ChatInput) bool {
	return false
}

// chatIndex is ChatState's lookups: messages by ID, and each conversation's
// messages in order.
type chatIndex struct {
	// byID maps a message ID to its message.
	byID map[string]ChatMessage
	// byConversation maps a conversation ID to its messages, in order.
	byConversation map[string][]ChatMessage
}

// orderLess orders messages by timestamp; equal timestamps by input ID (absent
// reads as "").
func orderLess(a, b ChatMessage) bool {
	if !a.Timestamp.Equal(b.Timestamp) {
		return a.Timestamp.Before(b.Timestamp)
	}
	return inputID(a) < inputID(b)
}

func inputID(m ChatMessage) string {
	if m.InputID == nil {
		return ""
	}
	return *m.InputID
}

// insertOrdered inserts after every message that does not order after it.
func insertOrdered(list []ChatMessage, m ChatMessage) []ChatMessage {
	i := sort.Search(len(list), func(i int) bool { return orderLess(m, list[i]) })
	list = append(list, ChatMessage{})
	copy(list[i+1:], list[i:])
	list[i] = m
	return list
}

// removeMessage removes the message with m's ID from an ordered list.
func removeMessage(list []ChatMessage, m ChatMessage) []ChatMessage {
	i := sort.Search(len(list), func(i int) bool { return !orderLess(list[i], m) })
	for list[i].MessageID != m.MessageID {
		i++
	}
	return append(list[:i], list[i+1:]...)
}

// Reindex rebuilds the lookups from Messages; needed only after editing
// Messages by hand.
func (s *ChatState) Reindex() {
	idx := &chatIndex{byID: map[string]ChatMessage{}, byConversation: map[string][]ChatMessage{}}
	for _, m := range s.Messages {
		if _, seen := idx.byID[m.MessageID]; !seen {
			idx.byID[m.MessageID] = m
		}
		idx.byConversation[m.ConversationID] = append(idx.byConversation[m.ConversationID], m)
	}
	s.index = idx
}

func (s *ChatState) indexed() *chatIndex {
	if s.index == nil {
		s.Reindex()
	}
	return s.index
}

// ApplyInput adds the input's message to its conversation, keeping the order
// and the history limit. Zero values of the state and the input mean their
// defaults (modality type, history size, fresh UUID4 IDs, empty
// metadata); then the input is validated (*ValidationError, state unchanged).
// An input whose ConversationID is "default" (or empty) goes to
// DefaultConversationID; a MessageID already stored is refused. Messages stay
// ordered by (timestamp, input ID) whatever order inputs arrive in; a
// conversation keeps its newest MaxHistorySize messages, while its metadata
// keeps describing every message applied (MessageCount counts them all).
func (s *ChatState) ApplyInput(in ChatInput) error {
	// A ChatState{} literal means the spec's defaults, as NewChatState() sets them.
	if s.ModalityType == "" {
		s.ModalityType = ChatStateModalityTypeDefault
	}
	if s.MaxHistorySize == 0 {
		s.MaxHistorySize = ChatStateMaxHistorySizeDefault
	}
	if s.DefaultConversationID == "" {
		s.DefaultConversationID = ChatStateDefaultConversationIDDefault
	}
	if s.MaxHistorySize < ChatStateMaxHistorySizeMinimum {
		return problem("/max_history_size", fmt.Sprintf("must be >= %d", ChatStateMaxHistorySizeMinimum), "minimum")
	}
	if in.ModalityType == "" {
		in.ModalityType = ChatInputModalityTypeDefault
	}
	if in.InputID == "" {
		in.InputID = rt.NewUUID4()
	}
	if in.MessageID == "" {
		in.MessageID = rt.NewUUID4()
	}
	if in.ConversationID == "" {
		in.ConversationID = DefaultInputConversation
	}
	if in.Metadata == nil {
		in.Metadata = map[string]any{}
	}
	// Parsing the input's own tree validates it and copies its content and
	// metadata, so later edits to the input cannot reach the state.
	own, err := rt.Build[ChatInput](in.toTree(), parseChatInput)
	if err != nil {
		return err
	}
	idx := s.indexed()
	if _, taken := idx.byID[own.MessageID]; taken {
		return problem("/message_id", "message ID '"+own.MessageID+"' is already in the state", "unique")
	}
	conversationID := own.ConversationID
	if conversationID == DefaultInputConversation {
		conversationID = s.DefaultConversationID
	}
	message := ChatMessage{
		MessageID:      own.MessageID,
		InputID:        &own.InputID,
		ConversationID: conversationID,
		Role:           own.Role,
		Content:        own.Content,
		Timestamp:      own.Timestamp,
		Metadata:       own.Metadata,
	}
	s.Messages = insertOrdered(s.Messages, message)
	conversation := insertOrdered(idx.byConversation[conversationID], message)
	idx.byID[message.MessageID] = message
	for int64(len(conversation)) > s.MaxHistorySize {
		oldest := conversation[0]
		conversation = conversation[1:]
		delete(idx.byID, oldest.MessageID)
		s.Messages = removeMessage(s.Messages, oldest)
	}
	idx.byConversation[conversationID] = conversation
	s.count(message)
	s.UpdateCount++
	if s.LastUpdated == nil || message.Timestamp.After(*s.LastUpdated) {
		t := message.Timestamp
		s.LastUpdated = &t
	}
	return nil
}

// count updates the conversation's metadata for one more applied message.
func (s *ChatState) count(m ChatMessage) {
	if s.Conversations == nil {
		s.Conversations = map[string]ConversationMetadata{}
	}
	meta, ok := s.Conversations[m.ConversationID]
	if !ok {
		meta = ConversationMetadata{ConversationID: m.ConversationID, CreatedAt: m.Timestamp, LastMessageAt: m.Timestamp, ParticipantRoles: []Role{}}
	}
	if m.Timestamp.Before(meta.CreatedAt) {
		meta.CreatedAt = m.Timestamp
	}
	if m.Timestamp.After(meta.LastMessageAt) {
		meta.LastMessageAt = m.Timestamp
	}
	meta.MessageCount++
	if !slices.Contains(meta.ParticipantRoles, m.Role) {
		roles := append(append([]Role{}, meta.ParticipantRoles...), m.Role)
		slices.Sort(roles)
		meta.ParticipantRoles = roles
	}
	s.Conversations[m.ConversationID] = meta
}

// GetSnapshot returns a copy of the whole state; json.Marshal writes its wire
// form and ParseChatStateFromJSON turns that back into a state.
func (s *ChatState) GetSnapshot() ChatState {
	out := *s
	out.index = nil
	out.Messages = append([]ChatMessage{}, s.Messages...)
	out.AdditionalProperties = maps.Clone(s.AdditionalProperties)
	out.Conversations = make(map[string]ConversationMetadata, len(s.Conversations))
	for k, v := range s.Conversations {
		v.ParticipantRoles = append([]Role{}, v.ParticipantRoles...)
		v.AdditionalProperties = maps.Clone(v.AdditionalProperties)
		out.Conversations[k] = v
	}
	return out
}

// ParseChatStateFromJSON decodes and validates a ChatState snapshot (errors
// as in ParseChatModalityFromJSON); the state it returns accepts inputs as
// the one the snapshot was taken from.
func ParseChatStateFromJSON(data []byte) (*ChatState, error) {
	tree, err := rt.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("failed to parse chat state JSON: %w", err)
	}
	state, err := rt.Build[ChatState](tree, parseChatState)
	if err != nil {
		return nil, fmt.Errorf("validation failed: %w", err)
	}
	return &state, nil
}

// ValidateState returns the problems with the state's consistency (ordering,
// metadata, history limits); empty when valid.
func (s *ChatState) ValidateState() []string {
	problems := []string{}
	for i := 1; i < len(s.Messages); i++ {
		if orderLess(s.Messages[i], s.Messages[i-1]) {
			problems = append(problems, fmt.Sprintf("Messages not in chronological order at index %d", i))
		}
	}
	seen := map[string]bool{}
	byConversation := map[string][]ChatMessage{}
	for _, m := range s.Messages {
		if seen[m.MessageID] {
			problems = append(problems, fmt.Sprintf("Message %s appears more than once", m.MessageID))
		}
		seen[m.MessageID] = true
		byConversation[m.ConversationID] = append(byConversation[m.ConversationID], m)
		if _, ok := s.Conversations[m.ConversationID]; !ok {
			problems = append(problems, fmt.Sprintf("Message %s belongs to conversation %s, which has no metadata", m.MessageID, m.ConversationID))
		}
	}
	ids := make([]string, 0, len(s.Conversations))
	for id := range s.Conversations {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var applied int64
	for _, id := range ids {
		meta := s.Conversations[id]
		applied += meta.MessageCount
		stored := byConversation[id]
		expected := meta.MessageCount
		if s.MaxHistorySize < expected {
			expected = s.MaxHistorySize
		}
		if int64(len(stored)) > s.MaxHistorySize {
			problems = append(problems, fmt.Sprintf("Conversation %s has %d messages, exceeds maximum %d", id, len(stored), s.MaxHistorySize))
		} else if int64(len(stored)) != expected {
			problems = append(problems, fmt.Sprintf("Conversation %s holds %d messages; its message_count %d and max_history_size %d call for %d", id, len(stored), meta.MessageCount, s.MaxHistorySize, expected))
		}
		missing := []string{}
		for _, m := range stored {
			if !slices.Contains(meta.ParticipantRoles, m.Role) && !slices.Contains(missing, string(m.Role)) {
				missing = append(missing, string(m.Role))
			}
		}
		sort.Strings(missing)
		roles := make([]string, len(meta.ParticipantRoles))
		for i, r := range meta.ParticipantRoles {
			roles[i] = string(r)
		}
		for _, role := range missing {
			problems = append(problems, fmt.Sprintf("Conversation %s metadata roles [%s] don't include %s", id, strings.Join(roles, ", "), role))
		}
		if len(stored) > 0 {
			first, last := stored[0].Timestamp, stored[0].Timestamp
			for _, m := range stored {
				if m.Timestamp.Before(first) {
					first = m.Timestamp
				}
				if m.Timestamp.After(last) {
					last = m.Timestamp
				}
			}
			if !last.Equal(meta.LastMessageAt) {
				problems = append(problems, fmt.Sprintf("Conversation %s metadata last_message_at doesn't match actual last message timestamp", id))
			}
			if first.Before(meta.CreatedAt) {
				problems = append(problems, fmt.Sprintf("Conversation %s metadata created_at is after its first message", id))
			}
		}
	}
	if s.UpdateCount != applied {
		problems = append(problems, fmt.Sprintf("update_count %d doesn't match the %d messages applied to conversations", s.UpdateCount, applied))
	}
	if len(s.Messages) > 0 {
		latest := s.Messages[0].Timestamp
		for _, m := range s.Messages {
			if m.Timestamp.After(latest) {
				latest = m.Timestamp
			}
		}
		if s.LastUpdated == nil || s.LastUpdated.Before(latest) {
			problems = append(problems, "last_updated is before the last message")
		}
	}
	return problems
}

// problem is a *ValidationError with one problem.
func problem(path, message, keyword string) error {
	detail := ErrorDetail{Path: path, Message: message, Keyword: keyword}
	return &ValidationError{Errors: []ErrorDetail{detail}}
}

// ChatQuery holds ChatState.Query parameters; zero values mean "any".
type ChatQuery struct {
	// ConversationID keeps the messages of one conversation.
	ConversationID string
	// Role keeps the messages of one role.
	Role Role
	// Since keeps messages at or after this time.
	Since *time.Time
	// Until keeps messages at or before this time.
	Until *time.Time
	// Limit keeps the newest N matches (0: all).
	Limit int
	// Search keeps messages whose text contains it, ignoring case.
	Search string
}

// ParseChatQuery checks JSON-shaped query parameters (as decoded by
// encoding/json or rt.Decode); the error is a *ValidationError naming each
// bad one (pointer /<name>).
func ParseChatQuery(params map[string]any) (ChatQuery, error) {
	var q ChatQuery
	var errs []ErrorDetail
	for _, name := range QueryParameters {
		value, ok := params[name]
		if !ok || value == nil {
			continue
		}
		switch name {
		case "since", "until":
			var when *time.Time
			if text, isText := value.(string); isText {
				if t, valid := rt.ParseTime(text); valid {
					when = &t
				}
			} else if t, isTime := value.(time.Time); isTime {
				when = &t
			}
			if when == nil {
				errs = append(errs, ErrorDetail{Path: "/" + name, Message: "must be an RFC 3339 date-time, e.g. 2024-01-15T10:30:00Z", Keyword: "format"})
			} else if name == "since" {
				q.Since = when
			} else {
				q.Until = when
			}
		case "limit":
			n, whole := wholeNumber(value)
			if !whole || n < 1 {
				errs = append(errs, ErrorDetail{Path: "/limit", Message: "must be an integer >= 1", Keyword: "minimum"})
			} else {
				q.Limit = int(n)
			}
		default:
			text, isText := value.(string)
			if !isText {
				errs = append(errs, ErrorDetail{Path: "/" + name, Message: "must be a string", Keyword: "type"})
			} else if name == "conversation_id" {
				q.ConversationID = text
			} else if name == "role" {
				q.Role = Role(text)
			} else {
				q.Search = text
			}
		}
	}
	unknown := []string{}
	for name := range params {
		if !slices.Contains(QueryParameters, name) {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		path := "/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
		errs = append(errs, ErrorDetail{Path: path, Message: "unknown query parameter; known: " + strings.Join(QueryParameters, ", "), Keyword: "additionalProperties"})
	}
	if len(errs) > 0 {
		return q, &ValidationError{Errors: errs}
	}
	return q, nil
}

// wholeNumber reads a JSON number that is an integer (1 and 1.0 alike).
func wholeNumber(v any) (int64, bool) {
	var f float64
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		f = n
	case interface{ Float64() (float64, error) }:
		x, err := n.Float64()
		if err != nil {
			return 0, false
		}
		f = x
	default:
		return 0, false
	}
	if f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// Query returns the stored messages matching every parameter set in q, in
// chronological order; with Limit, the newest Limit of them. The stored order
// is never changed.
func (s *ChatState) Query(q ChatQuery) []ChatMessage {
	idx := s.indexed()
	from := s.Messages
	if q.ConversationID != "" {
		from = idx.byConversation[q.ConversationID]
	}
	needle := strings.ToLower(q.Search)
	found := []ChatMessage{}
	for _, m := range from {
		if q.ConversationID != "" && m.ConversationID != q.ConversationID {
			continue
		}
		if q.Role != "" && m.Role != q.Role {
			continue
		}
		if q.Since != nil && m.Timestamp.Before(*q.Since) {
			continue
		}
		if q.Until != nil && m.Timestamp.After(*q.Until) {
			continue
		}
		if q.Search != "" && !containsText(m.Content, needle) {
			continue
		}
		found = append(found, m)
	}
	if q.Limit > 0 && len(found) > q.Limit {
		found = found[len(found)-q.Limit:]
	}
	return found
}

// containsText reports whether string content, or any text block, contains
// the (lower-case) needle, ignoring case.
func containsText(content Content, needle string) bool {
	if content.String != nil {
		return strings.Contains(strings.ToLower(*content.String), needle)
	}
	for _, block := range content.Array {
		if block.TextBlock != nil && strings.Contains(strings.ToLower(block.TextBlock.Text), needle) {
			return true
		}
	}
	return false
}

// GetConversation returns every stored message of one conversation, in
// chronological order (empty when unknown).
func (s *ChatState) GetConversation(conversationID string) []ChatMessage {
	return append([]ChatMessage{}, s.indexed().byConversation[conversationID]...)
}

// GetRecentMessages returns the newest limit stored messages (of one
// conversation unless conversationID is empty), in chronological order; a
// limit below 1 is a *ValidationError.
func (s *ChatState) GetRecentMessages(limit int, conversationID string) ([]ChatMessage, error) {
	if limit < 1 {
		return nil, problem("/limit", "must be an integer >= 1", "minimum")
	}
	return s.Query(ChatQuery{ConversationID: conversationID, Limit: limit}), nil
}

// GetMessageByID returns the stored message with this ID, and whether there
// is one.
func (s *ChatState) GetMessageByID(messageID string) (ChatMessage, bool) {
	m, ok := s.indexed().byID[messageID]
	return m, ok
}

// ChatState fields: the generated ChatState struct gains these.
type ChatState struct {
	// index holds the lookups the methods in behaviour.go keep; built when first needed.
	index *chatIndex
}
