# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A sixth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36, item 3) by a helper
session (branch ``i36-fresh6``) writing blind: it did not open the grammar (agents/reference/*.py), the
apps' phrasing declarations (miniapps/*/phrasings.json), decisions 0064/0065 nor the rows of any other
corpus — only the fifth fresh set's docstring (for the format), the measuring helpers (``_rows``,
``_kind``, ``_measure``), the fifth set's tests (for their pattern) and the apps' duration bounds in their
manifests (focus up to 24 hours, quiz up to 1 hour).

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app), ``range`` (a duration past
the app's bound) and ``help`` (anything that must not act). An activity is written as the person would
want it labelled, cut from the request. Notes appears only in requests that must not act (the measured
parser has no Notes intent).

Written as new voices — students, parents, teachers, office workers, grandparents, teenagers, people
writing in their second language — on phones and laptops: typos, slang, numbers as words, emoji, mixed
zh/en, polite and terse, context first, some rambling. The mix: about a third focus starts, a fifth
quizzes, stop (also with both running, stopping one and keeping the other), status, a fifth that must
not act (questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing,
plans for later, reminders and alarms it cannot set, scores reported), a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions, tests/agents/reference/test_corpus_people.py), not row by row. When they stop telling
anything new, write another fresh set rather than edit this one.
"""

HELD_OUT_FRESH6_EN = """
ok i need to lock in. 45 min on my econ problem set pls | start | 2700 | econ problem set
Could you please start a twenty-five minute focus session for me? I'm writing a cover letter. | start | 1500 | cover letter
focus 50m | start | 3000 | -
set me a focus timer of one hour, reading | start | 3600 | reading
kids are finally asleep so I have maybe forty minutes. start a focus for 40 min, I want to do the tax forms | start | 2400 | tax forms
start focus 15 minutes for piano practice | start | 900 | piano practice
Hello, I would like start the focusing for 30 minute, topic is German grammar | start | 1800 | German grammar
gimme 20 mins of focus for laundry folding lol | start | 1200 | laundry folding
deep work block 90 minutes - quarterly report | start | 5400 | quarterly report
start a 2 hour focus on thesis chapter 3 | start | 7200 | thesis chapter 3
Please begin focus timer 10 min. | start | 600 | -
im so behind on my bio lab writeup, can u do a focus thing for like 35 minutes | start | 2100 | bio lab writeup
focus: coding, 1h | start | 3600 | coding
My grandson told me you can do this. Please start one hour of focus for my crossword. | start | 3600 | crossword
half an hour focus, emails | start | 1800 | emails
start pomodoro 25 min vocab flashcards | start | 1500 | vocab flashcards
need to concentrate for an hour and a half on the grant proposal, start it | start | 5400 | grant proposal
focus session of 5 minutes please, just tidying desk | start | 300 | tidying desk
can we do a 45-minute focus? studying for my driving theory test | start | 2700 | driving theory test
start focus timer 30min | start | 1800 | -
yo start a focus 20 min | start | 1200 | -
Twelve minutes of focus for meditation please 🧘 | start | 720 | meditation
start a 3 hour focus block for studying | start | 10800 | studying
focus 25 min on spanish duolingo | start | 1500 | spanish duolingo
Good morning! Could you start a 40 minute focus for the budget spreadsheet, thank you so much | start | 2400 | budget spreadsheet
focus for 1 hr 15 min on slides | start | 4500 | slides
start focusing 8 min | start | 480 | -
begin a focus session, 55 minutes, essay draft | start | 3300 | essay draft
pls pls start focus 30 min i have a test tmrw 😭 | start | 1800 | -
start me a focus of two hours | start | 7200 | -
ok new plan: 25 minutes focus on inbox zero | start | 1500 | inbox zero
start a 20 minute focus for chapter 4 reading | start | 1200 | chapter 4 reading
thirty min focus sesh | start | 1800 | -
strat focus for 25 minutes on the lab report | start | 1500 | lab report
focsu timer 45 minuts | start | 2700 | -
Sir please start focus of 1 hour for my english homework | start | 3600 | english homework
laptop open, coffee ready ☕ focus 50 minutes on the client pitch | start | 3000 | client pitch
start a focus session | ask
can you start a timer for my reading | ask
I want to focus on chemistry | ask
let's do 30 minutes | ask
focus for 30 hours straight | range
quiz me on multiplication for 10 minutes | quiz | 600 | multiplication
can i get a 5 min addition quiz | quiz | 300 | addition
start a times tables quiz for my daughter, 15 minutes | quiz | 900 | multiplication
math quiz 20 min | quiz | 1200 | mixed
subtraction quiz 10 minutes pls | quiz | 600 | subtraction
Quiz, mixed, 30 minutes. | quiz | 1800 | mixed
test me on adding numbers for five minutes | quiz | 300 | addition
arithmetic quiz for half an hour | quiz | 1800 | mixed
I am teacher, I want start quiz of minus for 8 minutes for my class | quiz | 480 | subtraction
start a quiz 1 hour | quiz | 3600 | mixed
quick mental maths quiz, 3 mins | quiz | 180 | mixed
multiplication drill 12 minutes 🔢 | quiz | 720 | multiplication
can you quiz me for ten minutes? just sums | quiz | 600 | addition
start the quiz thing for 15 min, multiplying | quiz | 900 | multiplication
give me some math questions for 20 minutes | quiz | 1200 | mixed
ok quiz time!! 7 minutes of subtraction | quiz | 420 | subtraction
Please start an addition quiz, duration forty five minutes | quiz | 2700 | addition
bored on the bus, quiz me 6 min any kind of maths | quiz | 360 | mixed
quiz me | ask
quiz me on multiplication | ask
quiz me for 2 hours | range
stop the timer | stop
ok im done, end the focus | stop
cancel focus pls | stop
Please stop the quiz, I need to go. | stop
end quiz | stop
both are running, stop the quiz but keep my focus going | stop
stop the focus timer but leave the quiz on | stop
kill the pomodoro | stop
enough, stop the session | stop
i give up, stop the math quiz 😩 | stop
my boss just called me into a meeting, please stop my focus | stop
finish the focus early pls | stop
the quiz can stop now, focus stays | stop
how long is left? | status
how much time do i have left on focus | status
time left?? | status
how many minutes remaining in my session | status
is my timer still running? | status
when does the focus end | status
how long till my pomodoro is done | status
focus status pls | status
what is the pomodoro technique? | help
how does the quiz work | help
tell me a joke about timers | help
don't start a focus now, I'm eating | help
I did a 25 minute focus yesterday and it went great | help
if I started a 2 hour focus would my phone lock? | help
my sister started a quiz for 10 minutes on her laptop | help
remind me at 5pm to call mum | help
set an alarm for 7am | help
I got 18 out of 20 on the multiplication quiz!! | help
what did I write in my notes yesterday? | help
lol | help
thanks! | help
who made this app | help
should I do 25 or 50 minute focus sessions? | help
we were supposed to study for an hour but we didn't | help
never start quizzes without asking me | help
what happens when the timer ends | help
my teacher says 10 minutes of times tables a day is enough | help
I'll do a focus later tonight, maybe 40 min | help
haha my cat just walked on the keyboard | help
"""

HELD_OUT_FRESH6_ZH = """
帮我开个25分钟的专注 | start | 1500 | -
番茄钟 半小时 背单词 | start | 1800 | 背单词
开始专注四十分钟，写论文 | start | 2400 | 写论文
帮我开一个小时的专注，复习高数 | start | 3600 | 复习高数
专注45min 做PPT | start | 2700 | 做PPT
开个focus，25min，看书 | start | 1500 | 看书
孩子写作业，帮忙开个三十分钟的专注计时 | start | 1800 | -
专注一刻钟 | start | 900 | -
给我定一个90分钟的专注，准备面试 | start | 5400 | 准备面试
开始专注 一个半小时 | start | 5400 | -
请帮我开始专注二十分钟，谢谢 | start | 1200 | -
您好，我想开始专注五十分钟练字 | start | 3000 | 练字
专注模式 2小时 写毕设 | start | 7200 | 写毕设
专注10分钟冥想🧘 | start | 600 | 冥想
帮我开个专注 35分钟 读英语 | start | 2100 | 读英语
开始番茄钟，二十五分钟，整理房间 | start | 1500 | 整理房间
帮我开始专注一小时，内容是写周报 | start | 3600 | 写周报
专注 三小时 | start | 10800 | -
开一个五分钟的专注 | start | 300 | -
麻烦开启专注，时长40分钟，项目是做账 | start | 2400 | 做账
专注計時 30分鐘 | start | 1800 | -
开始专注！45分钟刷题💪 | start | 2700 | 刷题
focus 一小时 看文献 | start | 3600 | 看文献
帮我开个番茄 25min | start | 1500 | -
我要背单词了，专注二十分钟 | start | 1200 | 背单词
开始专注两个小时 | start | 7200 | -
奶奶想练毛笔字，帮她开个半小时专注 | start | 1800 | 练毛笔字
专注三刻钟，复习物理 | start | 2700 | 复习物理
开始专注12分钟 | start | 720 | -
专注 1h 写代码 | start | 3600 | 写代码
趁宝宝午睡，帮我开个45分钟专注，看小说 | start | 2700 | 看小说
开会前还有二十分钟，专注二十分钟改讲稿 | start | 1200 | 改讲稿
帮我弄个一小时的番茄钟吧，我要练吉他🎸 | start | 3600 | 练吉他
明天考试了啊啊啊 快帮我开专注 一个小时 | start | 3600 | -
开专注55分钟 画图 | start | 3300 | 画图
来个专注 十五分钟 | start | 900 | -
我想专注一下 | ask
开始专注 | ask
来个番茄钟 | ask
帮我计时读书 | ask
专注30个小时 | range
来个乘法测验 10分钟 | quiz | 600 | multiplication
做五分钟加法题 | quiz | 300 | addition
口算练习 十五分钟 | quiz | 900 | mixed
减法quiz 8分钟 | quiz | 480 | subtraction
开始一个二十分钟的数学小测 | quiz | 1200 | mixed
帮我孩子开个乘法口诀测试，十分钟 | quiz | 600 | multiplication
考考我加法，三分钟 | quiz | 180 | addition
混合运算测验半小时 | quiz | 1800 | mixed
出点算术题给我做，20分钟 | quiz | 1200 | mixed
开始测验 一小时 | quiz | 3600 | mixed
减法练习题 12分钟，谢谢 | quiz | 720 | subtraction
乘法 quiz 一刻钟 | quiz | 900 | multiplication
来个quiz 5min | quiz | 300 | mixed
我想练一下加法，开个测验二十五分钟 | quiz | 1500 | addition
无聊 做7分钟的数学题吧 | quiz | 420 | mixed
给小朋友出10分钟的减法题 | quiz | 600 | subtraction
来一轮八分钟的乘法小测验吧 | quiz | 480 | multiplication
考我乘法 | ask
做个数学测验 | ask
测验两个小时 | range
停止专注 | stop
结束计时 | stop
不做了，结束测验 | stop
取消番茄钟 | stop
别计时了 | stop
关掉专注 | stop
两个都在跑，把测验停了，专注留着 | stop
停掉专注，测验继续 | stop
临时有事，先停了吧 | stop
结束当前的专注 | stop
退出quiz | stop
stop一下专注 | stop
老板叫我开会，专注先结束 | stop
测验不用了，停掉吧，专注别动 | stop
还剩多久 | status
专注还有几分钟 | status
还有多少时间？ | status
番茄钟还剩多少 | status
我的专注什么时候结束 | status
计时还在吗 | status
剩余时间 | status
离结束还有多久啊 | status
我那个番茄钟还有多长时间啊 | status
番茄工作法是什么 | help
测验怎么用 | help
讲个笑话 | help
先别开始专注 | help
我昨天专注了两个小时 | help
如果我开一个小时的专注，手机会锁屏吗 | help
我同学刚开了个十分钟的测验 | help
提醒我下午三点开会 | help
定个明早七点的闹钟 | help
乘法测验我考了95分！ | help
我笔记里写了什么 | help
哈哈哈 | help
谢谢啦 | help
这个app是谁做的 | help
专注25分钟好还是50分钟好？ | help
今晚再专注吧，大概40分钟 | help
不要帮我开测验 | help
时间到了会响吗 | help
我妈说每天做十分钟口算就够了 | help
我儿子说这个测验太难了哈哈 | help
下周一提醒我交作业 | help
要是我中途退出专注会怎样 | help
"""
