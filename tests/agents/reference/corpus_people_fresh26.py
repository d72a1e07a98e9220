# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-sixth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a
helper session (branch ``i36-fresh26``) writing blind: it did not open the grammar (agents/), the apps'
phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, git history or diffs, nor the rows of
any corpus (the tables of test_corpus.py, any corpus_people*.py rows) — only the eighth fresh set's module
docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in
test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their
bodies only) and the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has
no start). It did not search the repository for phrases and did not run the parser or the measure on
these rows. Each row was labelled with what a careful human assistant would do with the two timed apps
installed (a focus timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a
guess. It is measured once, by someone else, after all rows were written, and no row is changed after
that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or a length said alone that could be either app), ``range`` (a
duration past the app's bound) and ``help`` (anything that must not act: questions about the apps, jokes,
negations, past tense, hypotheticals, someone else's doing, plans for later, things it cannot do —
reminders, alarms, pausing, Notes, quizzes on anything but the four arithmetic kinds — scores reported,
greetings and thanks). An activity is written as the person would want the timer labelled, cut from the
request in their words; where the work is named with its verb in Chinese (写报告, 背单词) the verb is kept,
in English the generic "focus on / work on" is dropped and the named work kept.

Written as new voices — a hospice volunteer, a mobile-game tester, a Taiwanese engineer writing
traditional characters, a woman training for a triathlon, a deaf student who writes compactly, a
comedian, a pastry chef, a high-school debate captain, a grandfather who types with one finger, a
conference interpreter, a manager who writes in corporate jargon, a tired parent at bedtime — typing on
phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both tables, some
traditional characters, context first, durations before or after the verb. The mix, per language: about
a third focus starts (with and without activity), a fifth quizzes (with and without a kind, durations in
several forms), stops (also with both running, stopping one and keeping the other), status, a fifth that
must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH26_EN = """
focus 30 min on visit notes before I drive home | start | 1800 | visit notes
start a 45 minute focus, regression pass on build 212 | start | 2700 | regression pass on build 212
tester here. 20 mins focus for the crash log triage pls | start | 1200 | crash log triage
Start focus 50 min — swim drill video review | start | 3000 | swim drill video review
need an hour and a half of deep focus for my debate case | start | 5400 | debate case
foucs 25 mins | start | 1500 | -
can u start twenty five minutes of focus for me | start | 1500 | -
2 hrs focus: grant proposal | start | 7200 | grant proposal
Let's lock in for forty minutes on the croissant costing sheet | start | 2400 | croissant costing sheet
start focus timer 15 min | start | 900 | -
pls start a focus sesh, 1 hour, summit glossary prep | start | 3600 | summit glossary prep
start focus 10 minits | start | 600 | -
focus 35m calc hw | start | 2100 | calc hw
focus 1h30 thesis ch.2 | start | 5400 | thesis ch.2
I have a set tonight, give me 45 minutes of focus on the closer bit | start | 2700 | closer bit
going heads down for 3 hours on Q4 roadmap alignment, start the focus timer | start | 10800 | Q4 roadmap alignment
let's action a 60-minute focus block for the vendor deck, ty | start | 3600 | vendor deck
kids finally asleep 😮‍💨 start a 20 min focus, tax forms | start | 1200 | tax forms
focus for 8 hours, full workday, label it "onboarding docs" | start | 28800 | onboarding docs
Brick workout done, now 25 min focus on race-day nutrition plan | start | 1500 | race-day nutrition plan
start a focus of 24 hours | start | 86400 | -
90 min focus pls | start | 5400 | -
Could you start a focus session for three quarters of an hour? Working on consecutive interpreting drills. | start | 2700 | consecutive interpreting drills
⏱️ 12 min focus | start | 720 | -
ok 开始 focus 30 min on the slides | start | 1800 | slides
give me 1 hr focus time for the bug bash writeup | start | 3600 | bug bash writeup
start 45-min focus on my rebuttal notes, go | start | 2700 | rebuttal notes
half an hour of focus for the eulogy draft please | start | 1800 | eulogy draft
focus 5 minutes | start | 300 | -
timer on, 40 min, piping practice | start | 2400 | piping practice
I need to focus for 2 and a half hours on the patch notes | start | 9000 | patch notes
start focusing now for 1 hour 15 minutes | start | 4500 | -
focus mode 55 min - transcribing the panel recording | start | 3300 | transcribing the panel recording
can we do a 25-minute focus for ticket triage? thx | start | 1500 | ticket triage
set focus to 18 minutes | start | 1080 | -
Pls begin focus session. Duration: 1 hour. Topic: knee rehab exercises | start | 3600 | knee rehab exercises
start focusing 30min on bike split analysis | start | 1800 | bike split analysis
ONE HOUR FOCUS FOR WEDDING TOAST | start | 3600 | wedding toast
start a 90 second focus | start | 90 | -
focus 4h on the quarterly synergy review | start | 14400 | quarterly synergy review
start a focus for 20 minutes for reading | start | 1200 | reading
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
5 min multiplication quiz | quiz | 300 | multiplication
arithmetic quiz, 10 min | quiz | 600 | mixed
give me a quick addition quiz, three minutes | quiz | 180 | addition
subtraction quiz 2 mins pls | quiz | 120 | subtraction
debate team warmup: 4 minute mental math quiz | quiz | 240 | mixed
start a 15-minute quiz with mixed arithmetic | quiz | 900 | mixed
can I get a minus quiz for 7 min | quiz | 420 | subtraction
quiz 1 hr, adding | quiz | 3600 | addition
time me on a 90 second multiplication quiz | quiz | 90 | multiplication
math quiz for my own brain pls, 20 min | quiz | 1200 | mixed
quick 6 min quiz: multiplying | quiz | 360 | multiplication
Start an arithmetic quiz lasting half an hour, subtraction only. | quiz | 1800 | subtraction
quizz me for 10 mins on plus problems | quiz | 600 | addition
mental arithmetic quiz, forty-five minutes | quiz | 2700 | mixed
quiz time! 8 minutes of times tables 🧮 | quiz | 480 | multiplication
gimme a 12 min addition quiz before my shift | quiz | 720 | addition
I want to practise subtraction for 10 minutes, quiz me | quiz | 600 | subtraction
a 3-minute arithmetic quiz please | quiz | 180 | mixed
quiz on multiplication, one hour | quiz | 3600 | multiplication
need a 5 minute math quiz, any kind | quiz | 300 | mixed
start quiz 25m times tables | quiz | 1500 | multiplication
let's do a 2-minute addition quiz rq | quiz | 120 | addition
stop the timer | stop
end focus | stop
stop the quiz but keep my focus going | stop
kill the timer, quiz stays | stop
stop both pls | stop
cancel the focus session, the family just arrived | stop
end the quiz now | stop
stahp the quiz 😩 | stop
quit the focus timer | stop
please stop the focus. leave the quiz running | stop
STOP TIMER | stop
abort focus, fire alarm | stop
I give up, end the quiz | stop
how long left? | status
how much time is left on my focus | status
is the quiz still running? | status
what's running rn | status
am I still in a focus session | status
time remaining on the quiz? | status
how many minutes do I have left | status
is the timer on? | status
status | status
which one's going, the quiz or the focus? | status
hi there | help
how long can a quiz be? | help
what kinds of quizzes can you do | help
don't start anything, just thinking out loud | help
I did a 50 min focus this morning 💪 | help
if I started a 2 hour focus would my phone still ring? | help
my daughter is doing a 10 min times tables quiz on her tablet | help
tomorrow at 8 start a 3 hour focus for the budget | help
pause the timer, I need the bathroom | help
remind me to call the family at 4 | help
set an alarm for 6am | help
add "order more butter" to my notes | help
quiz me on French verbs for 10 min | help
division quiz, 5 minutes | help
got 27 out of 30 on that quiz!! | help
why did the timer go off early? | help
no quiz today, thanks | help
a pomodoro walks into a bar... | help
thanks that helped | help
can you read me my notes | help
after lunch I'll want a 20 min quiz | help
what's a focus session anyway? | help
square roots quiz for 10 min | help
I should probably focus for an hour but meh | help
would a 30 min quiz be too long for a 7 year old? | help
start a focus session | ask
let's do 30 minutes | ask
quiz me | ask
focus on the lesson plan pls | ask
an hour, go | ask
start the subtraction quiz | ask
focus for 30 hours straight | range
2 hour multiplication quiz | range
quiz me for 90 minutes | range
start a 3 day focus on the novel | range
75-minute addition quiz | range
"""

HELD_OUT_FRESH26_ZH = """
专注25分钟 | start | 1500 | -
开始专注半小时，整理探访记录 | start | 1800 | 整理探访记录
幫我開始專注45分鐘，寫測試報告 | start | 2700 | 寫測試報告
專注一小時修韌體bug | start | 3600 | 修韌體bug
来个两小时的deep work，写论文 | start | 7200 | 写论文
专注四十分钟背单词 | start | 2400 | 背单词
番茄钟25分钟，复习高数 | start | 1500 | 复习高数
计时专注一个半小时 | start | 5400 | -
帮我开个专注，1小时20分，做预算表 | start | 4800 | 做预算表
三刻钟专注，练开酥 | start | 2700 | 练开酥
专注一刻钟 | start | 900 | -
开始专注 20 min，回复邮件 | start | 1200 | 回复邮件
孩子睡了，给我专注半个钟头看文件 | start | 1800 | 看文件
专注5分钟 | start | 300 | -
准备辩论赛，专注一小时写立论稿 | start | 3600 | 写立论稿
專注兩個小時 | start | 7200 | -
开始一次90分钟的专注，主题：交传笔记练习 | start | 5400 | 交传笔记练习
专注3小时，处理Q4对齐会议纪要 | start | 10800 | 处理Q4对齐会议纪要
我要专注三十五分钟，分析骑行数据 | start | 2100 | 分析骑行数据
专注24小时 | start | 86400 | -
来25分钟专注，写段子 | start | 1500 | 写段子
给我专注计时10分钟 | start | 600 | -
专注八小时 整理入职文档 | start | 28800 | 整理入职文档
開始專注30分鐘，準備簡報 | start | 1800 | 準備簡報
专注 50 分钟 游泳训练计划 | start | 3000 | 游泳训练计划
现在开始专注一小时十五分钟 | start | 4500 | -
帮我专注二十分钟，读报 | start | 1200 | 读报
focus 40分钟，整理测试用例 | start | 2400 | 整理测试用例
开个45分钟的专注时段，推进供应商方案 | start | 2700 | 推进供应商方案
专注两个半小时写毕业设计 | start | 9000 | 写毕业设计
专注12分钟 | start | 720 | -
聽打練習，專注四十分鐘 | start | 2400 | 聽打練習
专注九十秒 | start | 90 | -
請開始專注計時，一個鐘頭，寫code review | start | 3600 | 寫code review
专注1.5小时复习化学 | start | 5400 | 复习化学
开始专注，四小时，季度复盘 | start | 14400 | 季度复盘
铁三训练完了，专注半小时做饮食计划 | start | 1800 | 做饮食计划
出5分钟乘法题考我 | quiz | 300 | multiplication
来个十分钟的口算测验 | quiz | 600 | mixed
加法测验3分钟 | quiz | 180 | addition
减法小测，两分钟 | quiz | 120 | subtraction
九九乘法表测验，八分钟 | quiz | 480 | multiplication
考我一下算术，15分钟 | quiz | 900 | mixed
開始十分鐘的減法測驗 | quiz | 600 | subtraction
quiz 一下，乘法，6分钟 | quiz | 360 | multiplication
来个一小时的加法测验 | quiz | 3600 | addition
心算测验20分钟 | quiz | 1200 | mixed
混合运算测验，半小时 | quiz | 1800 | mixed
给我出一组减法题，限时四分钟 | quiz | 240 | subtraction
数学小测验，九十秒 | quiz | 90 | mixed
做个7分钟的乘法quiz | quiz | 420 | multiplication
辩论队热身：来个四分钟的口算测验 | quiz | 240 | mixed
测验加法，一刻钟 | quiz | 900 | addition
開個算術小考，二十分鐘 | quiz | 1200 | mixed
乘法测验45分钟 | quiz | 2700 | multiplication
出点加法题，限时十二分钟 | quiz | 720 | addition
帮我开个三分钟的算数测验 | quiz | 180 | mixed
练减法，测验 10 min | quiz | 600 | subtraction
口算乘法，考我25分钟 | quiz | 1500 | multiplication
来个两分钟的加法小测 🧮 | quiz | 120 | addition
停止专注 | stop
结束测验 | stop
停掉测验，专注继续 | stop
关掉计时器，测验别停 | stop
两个都停了 | stop
取消专注，家属来了 | stop
不做了，结束quiz | stop
停止計時 | stop
先把专注停了吧 | stop
stop一下timer | stop
測驗停掉，專注留著 | stop
结束番茄钟 | stop
快停！测验不要了 | stop
还剩多久？ | status
专注还有几分钟 | status
测验还在进行吗 | status
现在在跑什么 | status
我还在专注中吗 | status
測驗還剩多少時間？ | status
计时器开着吗 | status
状态 | status
现在是测验在跑还是专注在跑 | status
还有多长时间结束 | status
你好 | help
测验最长能多久？ | help
有哪些测验题型 | help
先别开计时，我只是随便说说 | help
我今天早上专注了50分钟💪 | help
如果我专注两小时，电话还会响吗 | help
我女儿在平板上做十分钟的乘法测验 | help
明早八点开始专注三小时 | help
暂停一下计时，我去个洗手间 | help
提醒我四点给家属打电话 | help
定个明早六点的闹钟 | help
在笔记里记一下：多订黄油 | help
考我十分钟英语单词 | help
除法测验五分钟 | help
刚才那个测验我答对了27道！ | help
计时器怎么提前响了？ | help
今天不做测验了，谢谢 | help
讲个笑话：番茄钟为什么脸红？ | help
谢谢，有用 | help
把我的笔记读给我听 | help
午饭后我想做个20分钟的测验 | help
专注模式是什么意思？ | help
我应该专注一小时的，但是不想动 | help
七岁小孩做30分钟测验会不会太长？ | help
開根號測驗10分鐘 | help
开始专注 | ask
来二十分钟吧 | ask
考考我 | ask
专注写周报 | ask
一小时，开始 | ask
开个减法测验 | ask
专注30个小时 | range
两小时的乘法测验 | range
考我九十分钟 | range
專注三天寫小說 | range
75分钟加法测验 | range
"""
